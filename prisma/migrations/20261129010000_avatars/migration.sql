-- Avatars (issue 23: profile). A person's picture is a blob (lib/attachments/blob-store) whose
-- key is kept in "users"."image" (written only by lib/avatars, never through the auth API); the
-- colour behind their initials is "avatarColor", one of lib/avatars/avatar-rules' swatches, or
-- NULL for the one derived from their id.
ALTER TABLE "users"
  ADD COLUMN "avatarColor" TEXT CONSTRAINT "users_avatar_color_check" CHECK ("avatarColor" ~ '^#[0-9a-f]{6}$');

-- chorus_post_message also returns its author's picture and colour, read from the users row it
-- already joins, so a new message shows who wrote it without another query. Only the author
-- lines and the two returned columns differ from 20261127200000_post_message_fast_path; a new
-- result column changes the function's type, so it is dropped and created again (in this
-- migration's transaction: no post ever finds it missing).
-- To change it, add a migration with CREATE OR REPLACE FUNCTION: applied migrations are immutable.
DROP FUNCTION "chorus_post_message"(TEXT, TEXT, TEXT, TEXT, TEXT, JSONB, INTEGER, TIMESTAMP(3), TEXT[], DOUBLE PRECISION, DOUBLE PRECISION, INTEGER, INTEGER, TEXT);
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
  "refused" TEXT,
  "authorImage" TEXT,
  "authorColor" TEXT
) LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
  IF cardinality(p_handles) = 0 THEN
    -- The common post: no @mentions, in a conversation where it starts no agent turn. Nothing is
    -- written unless the author takes part, the conversation is open and not an agent chat, and
    -- the message replied to (if any) is one of its own; otherwise no row comes back and the
    -- whole statement below decides (and says why it refuses).
    RETURN QUERY
    WITH author AS (
      SELECT u."name", u."image", u."avatarColor" FROM "conversations" c
      JOIN "participants" p ON p."conversationId" = c."id" AND p."userId" = p_user_id
      JOIN "users" u ON u."id" = p."userId"
      WHERE c."id" = p_conversation_id AND c."type" <> 'agent_dm' AND c."archivedAt" IS NULL
        AND (p_reply_to IS NULL OR EXISTS (
          SELECT 1 FROM "messages" WHERE "id" = p_reply_to AND "conversationId" = p_conversation_id AND "deletedAt" IS NULL))
    ), bucket AS (
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
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "clientId", "authorUserId", "role", "content", "metadata", "tokenCount", "createdAt", "replyToMessageId")
      SELECT p_message_id, p_conversation_id, allocated."lastSeq", p_client_id, p_user_id, 'user', p_content, p_metadata, p_token_count, p_created_at, p_reply_to
      FROM allocated
      RETURNING "seq"
    ), read AS (
      INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
      SELECT p_user_id, p_conversation_id, "seq", now() FROM inserted
      ON CONFLICT ("userId", "conversationId")
      DO UPDATE SET "lastReadSeq" = GREATEST("read_states"."lastReadSeq", EXCLUDED."lastReadSeq"), "unreadMentions" = 0, "updatedAt" = now()
    )
    SELECT author."name",
           (SELECT CASE WHEN "allowed" THEN "tokens" ELSE -1 END FROM bucket),
           (SELECT "seq" FROM inserted),
           ARRAY(SELECT p."userId" FROM "participants" p WHERE p."conversationId" = p_conversation_id AND p."userId" IS NOT NULL),
           '{}'::text[], '{}'::text[], '{}'::text[], '{}'::text[], '{}'::text[], NULL::text, NULL::text,
           author."image", author."avatarColor"
    FROM author;
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;
  -- Any post: mentions, an agent chat's turn, dispatches under the backlog limits, refusals.
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
      SELECT u."name", u."image", u."avatarColor" FROM "participants" p JOIN "users" u ON u."id" = p."userId"
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
           (SELECT "reason" FROM refusal),
           (SELECT "image" FROM author),
           (SELECT "avatarColor" FROM author);
END
$$;