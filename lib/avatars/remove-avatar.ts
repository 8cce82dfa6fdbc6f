import type { BlobStore } from "@/lib/attachments/blob-store";
import type { Prisma } from "@/lib/db/open-database";
import { deleteAvatarBlob, replaceAvatarImage } from "./avatar-image";
import type { PersonAvatar } from "./avatar-rules";

/** Back to initials: the row first, then the picture's blob. */
export async function removeAvatar(prisma: Prisma, store: BlobStore, { userId }: { userId: string }): Promise<PersonAvatar> {
  const { avatar, previous } = await replaceAvatarImage(prisma, { userId, key: null });
  await deleteAvatarBlob(store, previous);
  return avatar;
}
