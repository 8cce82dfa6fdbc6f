import { z } from "zod";
import { nameSchema } from "@/lib/auth/credentials";
import type { Prisma } from "@/lib/db/open-database";
import { preferencesOf, preferencesSchema, type Preferences } from "./preferences";

export const profileSchema = z.object({ name: nameSchema }).extend(preferencesSchema.shape);
export type ProfileInput = z.infer<typeof profileSchema>;

export interface Profile extends Preferences {
  name: string;
}

/** A person's name and preferences, saved together: one row, one statement. */
export async function updateProfile(prisma: Prisma, { userId, input }: { userId: string; input: ProfileInput }): Promise<Profile> {
  const row = await prisma.user.update({ where: { id: userId }, data: input, select: { name: true, theme: true, timeFormat: true } });
  return { name: row.name, ...preferencesOf(row) };
}
