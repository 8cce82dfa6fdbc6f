-- Many people, many agents (issue 26): turns bounded by what limits them, fair across rooms,
-- refused with the reason past a backlog.

-- Open turns (pending or running) by conversation: the posting function's backlog check.
CREATE INDEX "dispatches_open_conversationId_idx" ON "dispatches"("conversationId") WHERE "status" IN ('pending', 'running');
-- When a conversation was last served (its latest turn activity): the claim's fairness.
CREATE INDEX "dispatches_conversationId_updatedAt_idx" ON "dispatches"("conversationId", "updatedAt");

-- Requests and tokens sent to a provider per minute, shared by every node: a turn over the
-- provider's RPM or TPM waits for the next minute instead of being sent.
CREATE TABLE "provider_usage" (
    "provider" TEXT NOT NULL,
    "window" TIMESTAMP(3) NOT NULL,
    "requests" INTEGER NOT NULL DEFAULT 0,
    "tokens" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "provider_usage_pkey" PRIMARY KEY ("provider", "window")
);

-- chorus_post_message, now refusing a message whose turns would pass the backlog limits: the
-- open turns of the conversation, and those asked by its author anywhere. A refused post takes
-- nothing (no token of the rate bucket, no seq). See 20261122040000 for the function as a whole.
DROP FUNCTION "chorus_post_message"(TEXT, TEXT, TEXT, TEXT, TEXT, JSONB, INTEGER, TIMESTAMP(3), TEXT[], DOUBLE PRECISION, DOUBLE PRECISION);
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
  p_max_open_by_person INTEGER
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
  "backlog" TEXT
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
      SELECT "type" FROM "conversations" WHERE "id" = p_conversation_id
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
      SELECT p_user_id, p_rate_limit - 1, true, now() FROM author WHERE (SELECT "over" FROM backlog) IS NULL
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
      INSERT INTO "messages" ("id", "conversationId", "seq", "clientId", "authorUserId", "role", "content", "metadata", "tokenCount", "createdAt")
      SELECT p_message_id, p_conversation_id, allocated."lastSeq", p_client_id, p_user_id, 'user', p_content, p_metadata, p_token_count, p_created_at
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
           (SELECT "over" FROM backlog);
END
$$;
