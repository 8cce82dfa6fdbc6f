import { randomUUID } from "node:crypto";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { assertParticipant } from "./assert-participant";
import { unchangedMessage, type MessageDto } from "./message-dto";
import { userMessageMetadata } from "./message-metadata";

/**
 * Brings an agent of the project into a group conversation, so @mentions of it are answered.
 * The join and the "X added @agent" notice are one statement: everyone sees who changed the
 * room, and a second add of the same agent writes nothing.
 */
export async function addAgentToConversation(
  prisma: Prisma,
  { userId, conversationId, agentId }: { userId: string; conversationId: string; agentId: string },
): Promise<{ message: MessageDto; participantUserIds: string[] }> {
  await assertParticipant(prisma, { userId, conversationId });
  const [conversation, agent, adder] = await Promise.all([
    prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { type: true, projectId: true } }),
    prisma.agent.findUnique({ where: { id: agentId }, select: { projectId: true, handle: true, displayName: true, enabled: true } }),
    prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { name: true } }),
  ]);
  if (conversation.type !== "group") {
    throw new AppError("bad_request", "Agents can only be added to group conversations. Open a chat with the agent instead.");
  }
  if (!agent || agent.projectId !== conversation.projectId) throw new AppError("not_found", "That agent is not part of this project.");
  if (!agent.enabled) throw new AppError("bad_request", `${agent.displayName} is disabled by an admin.`);

  const id = randomUUID();
  const now = new Date();
  const metadata = userMessageMetadata(now);
  const content = `${adder.name} added ${agent.displayName} (@${agent.handle}) to the conversation.`;
  const [row] = await prisma.$queryRaw<{ seq: number | null; participantUserIds: string[] }[]>`
    WITH joined AS (
      INSERT INTO "participants" ("id", "conversationId", "agentId", "joinedAt")
      VALUES (${randomUUID()}, ${conversationId}, ${agentId}, ${now})
      ON CONFLICT ("conversationId", "agentId") DO NOTHING
      RETURNING "id"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = ${conversationId} AND EXISTS (SELECT 1 FROM joined)
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "role", "content", "metadata", "tokenCount", "createdAt")
      SELECT ${id}, ${conversationId}, "lastSeq", 'system', ${content}, ${JSON.stringify(metadata)}::jsonb, 0, ${now}
      FROM allocated
      RETURNING "seq"
    )
    SELECT (SELECT "seq" FROM inserted) AS "seq",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${conversationId} AND "userId" IS NOT NULL) AS "participantUserIds"`;
  if (!row || row.seq === null) throw new AppError("conflict", `${agent.displayName} is already in this conversation.`);
  return {
    message: { id, conversationId, seq: row.seq, clientId: null, role: "system", content, metadata, author: { kind: "system" }, createdAt: now.toISOString(), ...unchangedMessage },
    participantUserIds: row.participantUserIds,
  };
}
