-- Posting a message, the product's hot path, as one function: PL/pgSQL keeps each statement's
-- plan for the session, where the same statement sent from the application would be planned
-- again on every post (about half of its time on the embedded database).
-- It does, atomically: check the author takes part, take a token from their rate bucket,
-- allocate the next seq under the conversation's row lock (seqs have no gaps), insert the
-- message and the mentions of participants (growing their mention badges), write a dispatch
-- for each agent that must answer (an agent chat's agent always; in a group, the enabled agent
-- participants it @mentions; unique per message and agent), move the author's read position
-- (one's own messages, and what came before them, are read), and return who must be told.
-- A null "seq" means nothing was written: "authorName" null = not a participant, "tokens" < 0 =
-- rate-limited, otherwise the conversation is gone.
-- To change it, add a migration with CREATE OR REPLACE FUNCTION: applied migrations are immutable.
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
      INSERT INTO "rate_buckets" ("userId", "tokens", "updatedAt")
      SELECT p_user_id, p_rate_limit - 1, now() FROM author
      ON CONFLICT ("userId") DO UPDATE SET
        "tokens" = GREATEST(LEAST(p_rate_limit, "rate_buckets"."tokens" + EXTRACT(EPOCH FROM (now() - "rate_buckets"."updatedAt")) * p_refill_per_s) - 1, -1),
        "updatedAt" = now()
      RETURNING "tokens"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = p_conversation_id AND (SELECT "tokens" FROM bucket) >= 0
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
           (SELECT "tokens" FROM bucket),
           (SELECT "seq" FROM inserted),
           ARRAY(SELECT "userId" FROM parties WHERE "userId" IS NOT NULL),
           ARRAY(SELECT "userId" FROM parties WHERE "userId" <> p_user_id AND "handle" IN (SELECT "handle" FROM handles)),
           ARRAY(SELECT "agentId" FROM parties WHERE "agentId" IS NOT NULL AND "handle" IN (SELECT "handle" FROM handles)),
           ARRAY(SELECT "handle" FROM handles WHERE "handle" NOT IN (SELECT "handle" FROM parties)),
           ARRAY(SELECT "agentId" FROM dispatched),
           ARRAY(SELECT "id" FROM dispatched);
END
$$;
