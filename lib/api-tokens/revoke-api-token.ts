import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";

/** Revokes one of the user's own tokens at once; revoking twice is harmless. */
export async function revokeApiToken(prisma: Prisma, { userId, tokenId }: { userId: string; tokenId: string }): Promise<void> {
  const { count } = await prisma.apiToken.updateMany({ where: { id: tokenId, userId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (count === 0 && !(await prisma.apiToken.findFirst({ where: { id: tokenId, userId }, select: { id: true } }))) {
    throw new AppError("not_found", "That token does not exist.");
  }
}
