import type { Prisma } from "@/lib/db/open-database";

/** "Last seen" is kept to the minute: reconnecting tabs do not write on every connection. */
export async function markSeen(prisma: Prisma, userId: string): Promise<void> {
  await prisma.$executeRaw`
    UPDATE "users" SET "lastSeenAt" = now()
    WHERE "id" = ${userId} AND ("lastSeenAt" IS NULL OR "lastSeenAt" < now() - interval '1 minute')`;
}
