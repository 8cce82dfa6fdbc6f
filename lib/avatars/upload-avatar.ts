import { randomUUID } from "node:crypto";
import type { BlobStore } from "@/lib/attachments/blob-store";
import { formatBytes } from "@/lib/attachments/format-bytes";
import { sniffFile } from "@/lib/attachments/sniff-file";
import type { Prisma } from "@/lib/db/open-database";
import { AppError, type ErrorCode } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { deleteAvatarBlob, replaceAvatarImage } from "./avatar-image";
import { AVATAR_MAX_BYTES, avatarKey, type PersonAvatar } from "./avatar-rules";
import { prepareAvatar } from "./prepare-avatar";

const CHOOSE = "Choose a PNG, JPEG, WebP or GIF picture";

/** A refusal said under the avatar's file field. */
export function avatarRefusal(code: ErrorCode, message: string): AppError {
  return new AppError(code, message, { avatar: message });
}

/**
 * A person's new picture. Checked before anything is stored: its size, its type from its bytes
 * (never its name), whether sharp can read it; then cut to a square WebP, stored, and the row
 * pointed at it. A refusal stores nothing and leaves the row as it was; the picture it replaces
 * is deleted once the row no longer names it.
 */
export async function uploadAvatar(prisma: Prisma, store: BlobStore, { userId, name: sentName, bytes }: { userId: string; name: string; bytes: Uint8Array }): Promise<PersonAvatar> {
  const name = sentName.trim() || "This file";
  if (bytes.length > AVATAR_MAX_BYTES) throw avatarRefusal("payload_too_large", `${name} is ${formatBytes(bytes.length)}; a picture can be at most ${formatBytes(AVATAR_MAX_BYTES)}.`);
  if (bytes.length === 0) throw avatarRefusal("bad_request", `${name} is empty (0 bytes). ${CHOOSE}.`);
  // sniffFile refuses programs and names that lie about the bytes: either way, not a picture.
  const sniffed = await sniffFile(name, bytes, { maxChars: 1 }).catch((error: unknown) => {
    if (error instanceof AppError) return null;
    throw error;
  });
  if (sniffed?.kind !== "image") throw avatarRefusal("bad_request", `${name} is not a picture${sniffed ? ` (its bytes are ${sniffed.kind === "text" ? "text" : sniffed.mediaType})` : ""}. ${CHOOSE}.`);
  const avatar = await prepareAvatar(name, bytes);

  const key = avatarKey(randomUUID());
  await store.put(key, avatar, "image/webp");
  let replaced: Awaited<ReturnType<typeof replaceAvatarImage>>;
  try {
    replaced = await replaceAvatarImage(prisma, { userId, key });
  } catch (error) {
    await store.delete(key).catch((cause: unknown) => log.error("an avatar blob was left behind", { key, error: cause }));
    throw error;
  }
  await deleteAvatarBlob(store, replaced.previous);
  return replaced.avatar;
}
