-- Hardening (issue 8).

-- Sign-in throttling shared by every node and entry point (form action and auth API): one row
-- per key ("account:<email>" or "address:<ip>"), counting attempts in a window
-- and holding a block that grows with each attempt past the free ones.
CREATE TABLE "sign_in_throttles" (
    "key" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "windowStartedAt" TIMESTAMP(3) NOT NULL,
    "blockedUntil" TIMESTAMP(3),

    CONSTRAINT "sign_in_throttles_pkey" PRIMARY KEY ("key")
);

-- Personal API tokens: only a SHA-256 of the token is kept; revoked tokens stay listed.
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "api_tokens_tokenHash_key" ON "api_tokens"("tokenHash");
CREATE INDEX "api_tokens_userId_idx" ON "api_tokens"("userId");
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Whether the bucket's last take succeeded; posting reads it in the same statement.
ALTER TABLE "rate_buckets" ADD COLUMN "allowed" BOOLEAN NOT NULL DEFAULT true;

-- chorus_post_message, now with a rate bucket that refused posts do not drain (see 20261122040000
-- for what the function does as a whole).
CREATE OR REPLACE FUNCTION "chorus_post_message"(
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
  p_refill_per_s DOUBLE PRECISION
) RETURNS TABLE (
  "authorName" TEXT,
  "tokens" DOUBLE PRECISION,
  "seq" INTEGER,
  "participantUserIds" TEXT[],
  "mentionedUserIds" TEXT[],
  "mentionedAgentIds" TEXT[],
  "unknownMentions" TEXT[],
  "dispatchedAgentIds" TEXT[],
  "dispatchIds" TEXT[]
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
    ), author AS (
      SELECT u."name" FROM "participants" p JOIN "users" u ON u."id" = p."userId"
      WHERE p."conversationId" = p_conversation_id AND p."userId" = p_user_id
    ), bucket AS (
      -- A refused post takes nothing: the bucket only refills, so retrying never locks one out.
      INSERT INTO "rate_buckets" ("userId", "tokens", "allowed", "updatedAt")
      SELECT p_user_id, p_rate_limit - 1, true, now() FROM author
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
      SELECT gen_random_uuid()::text, p_message_id, parties."agentId", p_conversation_id, now()
      FROM inserted, allocated, parties JOIN "agents" ag ON ag."id" = parties."agentId" AND ag."enabled"
      WHERE parties."agentId" IS NOT NULL
        AND (allocated."type" = 'agent_dm' OR (allocated."type" = 'group' AND parties."handle" IN (SELECT "handle" FROM handles)))
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
           ARRAY(SELECT "id" FROM dispatched);
END
$$;
