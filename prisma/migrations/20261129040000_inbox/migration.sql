-- The "Mentions and replies" inbox (issue 23): an agent's reply names the person whose question it
-- answers (the author of the message it replies to), written with the reply
-- (lib/agents/persist-agent-reply.ts). Mentions are message_mentions, already indexed by person.
ALTER TABLE "messages" ADD COLUMN "askedByUserId" TEXT;
ALTER TABLE "messages" ADD CONSTRAINT "messages_askedByUserId_fkey" FOREIGN KEY ("askedByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Earlier replies: an agent's answer of a turn (not a tool step, a handoff or a fork's merged
-- result) answers the author of the message its metadata names.
UPDATE "messages" m SET "askedByUserId" = q."authorUserId"
FROM "messages" q
WHERE m."role" = 'assistant' AND m."authorAgentId" IS NOT NULL AND m."metadata" ? 'dispatchId'
  AND NOT m."metadata" ? 'toolStep' AND NOT m."metadata" ? 'handoff' AND NOT m."metadata" ? 'source'
  AND q."id" = m."metadata"->>'replyToMessageId' AND q."authorUserId" IS NOT NULL;

-- The inbox's replies to one person, newest first (its page and its unread count); only replies
-- are indexed.
CREATE INDEX "messages_askedByUserId_createdAt_idx" ON "messages" ("askedByUserId", "createdAt" DESC, "id" DESC) WHERE "askedByUserId" IS NOT NULL;
