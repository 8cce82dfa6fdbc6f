import type { BlobStore } from "@/lib/attachments/blob-store";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { errorResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";
import { avatarKey, isAvatarKey } from "./avatar-rules";

const NO_PICTURE = "This person has no picture.";

/** A person's avatar bytes, and whether the version asked for is the current one. */
export async function readAvatar(prisma: Prisma, store: BlobStore, { userId, version }: { userId: string; version: string | null }): Promise<{ bytes: Uint8Array; current: boolean }> {
  const row = await prisma.user.findFirst({ where: { id: userId, deletedAt: null }, select: { image: true } });
  if (!isAvatarKey(row?.image)) throw new AppError("not_found", NO_PICTURE);
  const bytes = await store.get(row.image);
  if (!bytes) throw new AppError("not_found", NO_PICTURE);
  return { bytes, current: version !== null && avatarKey(version) === row.image };
}

/**
 * GET /api/avatars/{userId}?v=…: the picture, for signed-in people only. The URL of a version
 * never shows another picture, so it is cached for good; an old or missing version gets the
 * current picture, checked again each time.
 */
export async function serveAvatar(request: Request, userId: string): Promise<Response> {
  try {
    const { runtime } = await requireApiUser(request);
    const { bytes, current } = await readAvatar(runtime.db.prisma, runtime.attachments.store, { userId, version: new URL(request.url).searchParams.get("v") });
    // Never a SharedArrayBuffer: the bytes come from a file or an HTTP body.
    return new Response(bytes as Uint8Array<ArrayBuffer>, {
      headers: {
        "Content-Type": "image/webp",
        "Content-Length": String(bytes.length),
        "X-Content-Type-Options": "nosniff",
        "Content-Security-Policy": "sandbox; default-src 'none'",
        "Cache-Control": current ? "private, max-age=31536000, immutable" : "private, no-cache",
      },
    });
  } catch (error) {
    return errorResponse("read-avatar", error);
  }
}
