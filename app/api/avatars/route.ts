import { removeAvatar } from "@/lib/avatars/remove-avatar";
import { AVATAR_MAX_BYTES } from "@/lib/avatars/avatar-rules";
import { avatarRefusal, uploadAvatar } from "@/lib/avatars/upload-avatar";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { readUploadedFile } from "@/lib/http/read-uploaded-file";
import { requireApiUser } from "@/lib/session/api-user";

/** Your new picture (multipart field "file", at most 5 MB): how you now look, `{ color, avatarUrl }`. */
export async function POST(request: Request) {
  return jsonResponse("upload-avatar", async () => {
    const { runtime, user } = await requireApiUser(request);
    const file = await readUploadedFile(request, { maxBytes: AVATAR_MAX_BYTES }).catch((error: unknown) => {
      // Said under the picture's field, as the other refusals are.
      throw error instanceof AppError ? avatarRefusal(error.code, error.message) : error;
    });
    return uploadAvatar(runtime.db.prisma, runtime.attachments.store, { userId: user.id, ...file });
  });
}

/** Back to your initials. */
export async function DELETE(request: Request) {
  return jsonResponse("remove-avatar", async () => {
    const { runtime, user } = await requireApiUser(request);
    return removeAvatar(runtime.db.prisma, runtime.attachments.store, { userId: user.id });
  });
}
