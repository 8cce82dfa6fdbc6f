-- Everyday messaging (issue 19): edits and deletions (tombstones), versions of a message
-- (edits, resends, regenerated replies), reactions, replies, and conversations people manage.

ALTER TABLE "conversations" ADD COLUMN "lastChangeSeq" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "topic" TEXT,
  ADD COLUMN "archivedAt" TIMESTAMP(3),
  ADD COLUMN "isPrivate" BOOLEAN NOT NULL DEFAULT false,
  ADD COLUMN "createdByUserId" TEXT;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "messages" ADD COLUMN "editedAt" TIMESTAMP(3),
  ADD COLUMN "deletedAt" TIMESTAMP(3),
  ADD COLUMN "deletedByUserId" TEXT,
  ADD COLUMN "changeSeq" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "versionCount" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "replyToMessageId" TEXT;
ALTER TABLE "messages" ADD CONSTRAINT "messages_deletedByUserId_fkey" FOREIGN KEY ("deletedByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "messages" ADD CONSTRAINT "messages_replyToMessageId_fkey" FOREIGN KEY ("replyToMessageId") REFERENCES "messages"("id") ON DELETE SET NULL ON UPDATE CASCADE;
-- What changed after a client's last change number: catching up reads only those.
CREATE INDEX "messages_conversationId_changeSeq_idx" ON "messages"("conversationId", "changeSeq");

CREATE TABLE "message_versions" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "tokenCount" INTEGER,
    "tokenEncoding" TEXT,
    "askVersion" INTEGER,
    "createdByUserId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_versions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "message_versions_messageId_version_key" ON "message_versions"("messageId", "version");
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_versions" ADD CONSTRAINT "message_versions_createdByUserId_fkey" FOREIGN KEY ("createdByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "message_reactions" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "emoji" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_reactions_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "message_reactions_messageId_userId_emoji_key" ON "message_reactions"("messageId", "userId", "emoji");
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_reactions" ADD CONSTRAINT "message_reactions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A reply may be asked again: one turn per (message, agent, generation).
ALTER TABLE "dispatches" ADD COLUMN "generation" INTEGER NOT NULL DEFAULT 1,
  ADD COLUMN "regeneratesMessageId" TEXT;
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_regeneratesMessageId_fkey" FOREIGN KEY ("regeneratesMessageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
DROP INDEX "dispatches_messageId_agentId_key";
CREATE UNIQUE INDEX "dispatches_messageId_agentId_generation_key" ON "dispatches"("messageId", "agentId", "generation");

-- chorus_post_message, now refusing a post into an archived conversation and storing which
-- message a post replies to (it must be a message of the same conversation, not deleted).
-- See 20261122040000 for the function as a whole.
DROP FUNCTION "chorus_post_message"(TEXT, TEXT, TEXT, TEXT, TEXT, JSONB, INTEGER, TIMESTAMP(3), TEXT[], DOUBLE PRECISION, DOUBLE PRECISION, INTEGER, INTEGER);
CREATE FUNCTION "chorus_post_message"(
  p_message_id TEXT,
  p_conversation_id TEXT,
  p_client_id TEXT,
  p_user_id TEXT,
  p_content TEXT,
  p_metadata JSONB,
  p_token_count INTEGER,
  p_created_at TIMESTAMP(3),
  p_handles TEXT[],
  p_rate_limit DOUBLE PRECISION,
  p_refill_per_s DOUBLE PRECISION,
  p_max_open_in_conversation INTEGER,
  p_max_open_by_person INTEGER,
  p_reply_to TEXT
) RETURNS TABLE (
  "authorName" TEXT,
  "tokens" DOUBLE PRECISION,
  "seq" INTEGER,
  "participantUserIds" TEXT[],
  "mentionedUserIds" TEXT[],
  "mentionedAgentIds" TEXT[],
  "unknownMentions" TEXT[],
  "dispatchedAgentIds" TEXT[],
  "dispatchIds" TEXT[],
  "backlog" TEXT,
  "refused" TEXT
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    WITH parties AS (
      SELECT p."userId", p."agentId", COALESCE(u."handle", a."handle") AS "handle"
      FROM "participants" p
      LEFT JOIN "users" u ON u."id" = p."userId"
      LEFT JOIN "agents" a ON a."id" = p."agentId"
      WHERE p."conversationId" = p_conversation_id
    ), handles AS (
      SELECT unnest(p_handles) AS "handle"
    ), conversation AS (
      SELECT "type", "archivedAt" FROM "conversations" WHERE "id" = p_conversation_id
    ), refusal AS (
      -- Archived conversations are read-only; a reply quotes a message of the same conversation that still exists.
      SELECT CASE
        WHEN (SELECT "archivedAt" FROM conversation) IS NOT NULL THEN 'archived'
        WHEN p_reply_to IS NOT NULL AND NOT EXISTS (
          SELECT 1 FROM "messages" WHERE "id" = p_reply_to AND "conversationId" = p_conversation_id AND "deletedAt" IS NULL) THEN 'reply_to'
      END AS "reason"
    ), asked AS (
      -- The agents this message makes answer (as "dispatched" below writes them).
      SELECT parties."agentId" FROM conversation, parties JOIN "agents" ag ON ag."id" = parties."agentId" AND ag."enabled"
      WHERE parties."agentId" IS NOT NULL
        AND (conversation."type" = 'agent_dm' OR (conversation."type" = 'group' AND parties."handle" IN (SELECT "handle" FROM handles)))
    ), backlog AS (
      SELECT CASE
        WHEN NOT EXISTS (SELECT 1 FROM asked) THEN NULL
        WHEN (SELECT count(*) FROM "dispatches" WHERE "conversationId" = p_conversation_id AND "status" IN ('pending', 'running'))
             + (SELECT count(*) FROM asked) > p_max_open_in_conversation THEN 'conversation'
        WHEN (SELECT count(*) FROM "dispatches" d JOIN "messages" m ON m."id" = COALESCE(d."askMessageId", d."messageId")
              WHERE d."status" IN ('pending', 'running') AND m."authorUserId" = p_user_id)
             + (SELECT count(*) FROM asked) > p_max_open_by_person THEN 'person'
      END AS "over"
    ), author AS (
      SELECT u."name" FROM "participants" p JOIN "users" u ON u."id" = p."userId"
      WHERE p."conversationId" = p_conversation_id AND p."userId" = p_user_id
    ), bucket AS (
      -- A refused post takes nothing: the bucket only refills, so retrying never locks one out.
      INSERT INTO "rate_buckets" ("userId", "tokens", "allowed", "updatedAt")
      SELECT p_user_id, p_rate_limit - 1, true, now() FROM author WHERE (SELECT "over" FROM backlog) IS NULL AND (SELECT "reason" FROM refusal) IS NULL
      ON CONFLICT ("userId") DO UPDATE SET
        "tokens" = LEAST(p_rate_limit, "rate_buckets"."tokens" + EXTRACT(EPOCH FROM (now() - "rate_buckets"."updatedAt")) * p_refill_per_s)
          - CASE WHEN LEAST(p_rate_limit, "rate_buckets"."tokens" + EXTRACT(EPOCH FROM (now() - "rate_buckets"."updatedAt")) * p_refill_per_s) >= 1 THEN 1 ELSE 0 END,
        "allowed" = LEAST(p_rate_limit, "rate_buckets"."tokens" + EXTRACT(EPOCH FROM (now() - "rate_buckets"."updatedAt")) * p_refill_per_s) >= 1,
        "updatedAt" = now()
      RETURNING "tokens", "allowed"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = p_conversation_id AND (SELECT "allowed" FROM bucket)
      RETURNING "lastSeq", "type"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "clientId", "authorUserId", "role", "content", "metadata", "tokenCount", "createdAt", "replyToMessageId")
      SELECT p_message_id, p_conversation_id, allocated."lastSeq", p_client_id, p_user_id, 'user', p_content, p_metadata, p_token_count, p_created_at, p_reply_to
      FROM allocated
      RETURNING "seq"
    ), mentioned AS (
      INSERT INTO "message_mentions" ("id", "messageId", "conversationId", "seq", "userId", "agentId")
      SELECT gen_random_uuid()::text, p_message_id, p_conversation_id, inserted."seq", parties."userId", parties."agentId"
      FROM inserted, parties
      WHERE parties."handle" IN (SELECT "handle" FROM handles) AND parties."userId" IS DISTINCT FROM p_user_id
    ), mention_badges AS (
      -- The new message is after everyone's read position: each mentioned person's badge grows.
      INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "unreadMentions", "updatedAt")
      SELECT parties."userId", p_conversation_id, 0, 1, now()
      FROM inserted, parties
      WHERE parties."handle" IN (SELECT "handle" FROM handles) AND parties."userId" IS NOT NULL AND parties."userId" <> p_user_id
      ON CONFLICT ("userId", "conversationId") DO UPDATE SET "unreadMentions" = "read_states"."unreadMentions" + 1
    ), dispatched AS (
      INSERT INTO "dispatches" ("id", "messageId", "agentId", "conversationId", "updatedAt")
      SELECT gen_random_uuid()::text, p_message_id, asked."agentId", p_conversation_id, now()
      FROM inserted, asked
      RETURNING "id", "agentId"
    ), read AS (
      INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
      SELECT p_user_id, p_conversation_id, "seq", now() FROM inserted
      ON CONFLICT ("userId", "conversationId")
      DO UPDATE SET "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"), "unreadMentions" = 0, "updatedAt" = now()
    )
    SELECT (SELECT "name" FROM author),
           (SELECT CASE WHEN "allowed" THEN "tokens" ELSE -1 END FROM bucket),
           (SELECT "seq" FROM inserted),
           ARRAY(SELECT "userId" FROM parties WHERE "userId" IS NOT NULL),
           ARRAY(SELECT "userId" FROM parties WHERE "userId" <> p_user_id AND "handle" IN (SELECT "handle" FROM handles)),
           ARRAY(SELECT "agentId" FROM parties WHERE "agentId" IS NOT NULL AND "handle" IN (SELECT "handle" FROM handles)),
           ARRAY(SELECT "handle" FROM handles WHERE "handle" NOT IN (SELECT "handle" FROM parties)),
           ARRAY(SELECT "agentId" FROM dispatched),
           ARRAY(SELECT "id" FROM dispatched),
           (SELECT "over" FROM backlog),
           (SELECT "reason" FROM refusal);
END
$$;
