import type { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { avatarOf, type avatarColorSchema, type PersonAvatar } from "./avatar-rules";

/** The colour behind a person's initials: a swatch, or null for the one derived from their id. */
export async function setAvatarColor(prisma: Prisma, { userId, input }: { userId: string; input: z.infer<typeof avatarColorSchema> }): Promise<PersonAvatar> {
  const row = await prisma.user.update({ where: { id: userId }, data: { avatarColor: input.avatarColor }, select: { id: true, image: true, avatarColor: true } });
  return avatarOf(row);
}
