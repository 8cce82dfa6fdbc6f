import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Party } from "./conversation-scope";
import { unchangedMessage, type MessageDto } from "./message-dto";
import { userMessageMetadata } from "./message-metadata";

export interface MembershipChange {
  conversationId: string;
  member: Party;
  change: "join" | "leave";
  /** The system line everyone in the conversation reads: who changed it, and how. */
  notice: string;
}

export interface MembershipChanged {
  message: MessageDto;
  /** The people in the conversation after the change: whose sidebars hear of the notice. */
  participantUserIds: string[];
}

/**
 * A participant joins or leaves and the conversation's system line says so, in ONE statement:
 * everyone sees who changed the room, and a change that is already so (a second add, removing
 * someone who is not there) writes nothing and returns null. A person who joins starts with the
 * history before the notice read, not hundreds of unread messages.
 */
export async function changeMembership(prisma: Prisma, { conversationId, member, change, notice }: MembershipChange): Promise<MembershipChanged | null> {
  const id = randomUUID();
  const now = new Date();
  const metadata = userMessageMetadata(now);
  const userId = "userId" in member ? member.userId : null;
  const column = userId ? sql`"userId"` : sql`"agentId"`;
  const memberId = userId ?? ("agentId" in member ? member.agentId : "");
  const changed =
    change === "join"
      ? sql`INSERT INTO "participants" ("id", "conversationId", ${column}, "joinedAt") VALUES (${randomUUID()}, ${conversationId}, ${memberId}, ${now})
            ON CONFLICT ("conversationId", ${column}) DO NOTHING RETURNING "id"`
      : sql`DELETE FROM "participants" WHERE "conversationId" = ${conversationId} AND ${column} = ${memberId} RETURNING "id"`;
  const caughtUp =
    change === "join" && userId
      ? sql`, caught_up AS (
          INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "unreadMentions", "updatedAt")
          SELECT ${userId}, ${conversationId}, "lastSeq" - 1, 0, now() FROM allocated
          ON CONFLICT ("userId", "conversationId")
          DO UPDATE SET "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"), "unreadMentions" = 0, "updatedAt" = now()
        )`
      : empty;
  const [row] = await prisma.$queryRaw<{ seq: number | null; participantUserIds: string[] }[]>`
    WITH changed AS (${changed}), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${conversationId} AND EXISTS (SELECT 1 FROM changed)
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "role", "content", "metadata", "tokenCount", "createdAt")
      SELECT ${id}, ${conversationId}, "lastSeq", 'system', ${notice}, ${JSON.stringify(metadata)}::jsonb, 0, ${now}
      FROM allocated
      RETURNING "seq"
    )${caughtUp}
    SELECT (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${conversationId} AND "userId" IS NOT NULL) AS "participantUserIds"`;
  if (!row || row.seq === null) return null;
  // The statement's own snapshot lists the people as they were before it.
  const others = row.participantUserIds.filter((participant) => participant !== userId);
  return {
    message: { id, conversationId, seq: row.seq, clientId: null, role: "system", content: notice, metadata, author: { kind: "system" }, createdAt: now.toISOString(), ...unchangedMessage },
    participantUserIds: userId && change === "join" ? [...others, userId] : others,
  };
}
