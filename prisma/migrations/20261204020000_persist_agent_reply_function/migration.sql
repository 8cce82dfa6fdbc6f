-- Storing an agent's reply as a database function: sent from the application, the statement
-- (its dispatch's end, the message, the follow-up turn of a handoff, the usage row, the
-- snapshot's reply id) was planned again for every reply, about 2.4 ms on the embedded database;
-- PL/pgSQL keeps the plan. Same writes, fences and result as the statement it replaces
-- (lib/agents/persist-agent-reply.ts), the optional parts switched by their parameters.

-- A dispatch's usage row, for the statements that store a turn's reply (this function, and
-- lib/usage/record-usage.ts insertDispatchUsage): the asker is the author of the message the turn
-- answers (after a handoff, the person's, not the handoff message's).
CREATE FUNCTION "chorus_dispatch_usage_row"(
  p_dispatch_id TEXT,
  p_id TEXT,
  p_provider TEXT,
  p_model TEXT,
  p_input_tokens INTEGER,
  p_output_tokens INTEGER,
  p_created_at TIMESTAMP(3)
) RETURNS TABLE ("id" TEXT, "projectId" TEXT, "kind" TEXT, "turnId" TEXT, "agentId" TEXT, "userId" TEXT, "conversationId" TEXT, "provider" TEXT, "model" TEXT, "inputTokens" INTEGER, "outputTokens" INTEGER, "createdAt" TIMESTAMP(3))
LANGUAGE sql STABLE AS $$
  SELECT p_id, c."projectId", 'turn', d."id", d."agentId", asker."authorUserId", d."conversationId", p_provider, p_model, p_input_tokens, p_output_tokens, p_created_at
  FROM "dispatches" d
  JOIN "conversations" c ON c."id" = d."conversationId"
  LEFT JOIN "messages" asker ON asker."id" = COALESCE(d."askMessageId", d."messageId")
  WHERE d."id" = p_dispatch_id
$$;

CREATE FUNCTION "chorus_persist_agent_reply"(
  p_dispatch_id TEXT,
  -- The claim's attempt that answers; NULL for a turn that never ran (it ends while pending).
  p_attempt INTEGER,
  p_outcome TEXT,
  p_error TEXT,
  p_reply_id TEXT,
  p_conversation_id TEXT,
  p_agent_id TEXT,
  p_content TEXT,
  p_metadata JSONB,
  p_token_count INTEGER,
  p_token_encoding TEXT,
  p_created_at TIMESTAMP(3),
  p_reply_to TEXT,
  -- A handoff's next turn (NULL: none): written running under this turn's lease when its agent
  -- has nothing earlier to do in that conversation, otherwise pending.
  p_follow_id TEXT,
  p_follow_message_id TEXT,
  p_follow_agent_id TEXT,
  p_follow_conversation_id TEXT,
  p_follow_ask_message_id TEXT,
  p_follow_mode TEXT,
  p_follow_history_limit INTEGER,
  p_follow_depth INTEGER,
  p_follow_allow_handoff BOOLEAN,
  -- What the turn's model calls spent (NULL id: nothing reported).
  p_usage_id TEXT,
  p_provider TEXT,
  p_model TEXT,
  p_input_tokens INTEGER,
  p_output_tokens INTEGER
) RETURNS TABLE ("seq" INTEGER, "askedByUserId" TEXT, "followUpStatus" TEXT, "participantUserIds" TEXT[])
LANGUAGE plpgsql ROWS 1 AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    WITH finished AS (
      UPDATE "dispatches" SET "status" = p_outcome::"DispatchStatus", "replyMessageId" = p_reply_id, "leaseUntil" = NULL,
        "lastError" = p_error, "updatedAt" = now()
      WHERE "id" = p_dispatch_id AND (CASE WHEN p_attempt IS NULL THEN "status" = 'pending' ELSE "status" = 'running' AND "attempt" = p_attempt END)
      RETURNING "id"
    ), allocated AS (
      UPDATE "conversations" SET "lastSeq" = "lastSeq" + 1, "updatedAt" = now()
      WHERE "id" = p_conversation_id AND EXISTS (SELECT 1 FROM finished)
      RETURNING "lastSeq"
    ), inserted AS (
      INSERT INTO "messages" ("id", "conversationId", "seq", "authorAgentId", "role", "content", "metadata", "tokenCount", "tokenEncoding", "createdAt", "askedByUserId")
      SELECT p_reply_id, p_conversation_id, allocated."lastSeq", p_agent_id, 'assistant', p_content, p_metadata, p_token_count, p_token_encoding, p_created_at,
        -- The person whose question it answers: their inbox lists it, and they are told of it.
        (SELECT q."authorUserId" FROM "messages" q WHERE q."id" = p_reply_to)
      FROM allocated
      RETURNING "seq", "askedByUserId"
    ), queued AS (
      INSERT INTO "dispatches" ("id", "messageId", "agentId", "conversationId", "askMessageId", "mode", "historyLimit", "depth", "allowHandoff", "status", "attempt", "leaseUntil", "leasedBy", "createdAt", "updatedAt")
      SELECT p_follow_id, p_follow_message_id, p_follow_agent_id, p_follow_conversation_id, p_follow_ask_message_id, p_follow_mode, p_follow_history_limit, p_follow_depth, p_follow_allow_handoff,
             CASE WHEN b.busy THEN 'pending' ELSE 'running' END::"DispatchStatus", CASE WHEN b.busy THEN 0 ELSE 1 END, CASE WHEN b.busy THEN NULL ELSE d."leaseUntil" END, CASE WHEN b.busy THEN NULL ELSE d."leasedBy" END,
             d."createdAt", now()
      FROM "dispatches" d, LATERAL (
        SELECT EXISTS (
          SELECT 1 FROM "dispatches" e
          WHERE e."agentId" = p_follow_agent_id AND e."conversationId" = p_follow_conversation_id AND e."id" <> d."id" AND e."status" IN ('pending', 'running')
        ) AS busy
      ) b
      WHERE p_follow_id IS NOT NULL AND d."id" = p_dispatch_id AND EXISTS (SELECT 1 FROM inserted)
      RETURNING "status"
    ), counted AS (
      INSERT INTO "usage_records" ("id", "projectId", "kind", "turnId", "agentId", "userId", "conversationId", "provider", "model", "inputTokens", "outputTokens", "createdAt")
      SELECT * FROM "chorus_dispatch_usage_row"(p_dispatch_id, p_usage_id, p_provider, p_model, p_input_tokens, p_output_tokens, p_created_at)
      WHERE p_usage_id IS NOT NULL AND EXISTS (SELECT 1 FROM inserted)
      ON CONFLICT ("kind", "turnId") DO NOTHING
    ), noted AS (
      -- The turn's snapshot learns which reply it produced.
      UPDATE "context_snapshots" SET "replyMessageId" = p_reply_id
      WHERE "turnId" = p_dispatch_id AND EXISTS (SELECT 1 FROM inserted)
    )
    SELECT (SELECT i."seq" FROM inserted i), (SELECT i."askedByUserId" FROM inserted i),
           (SELECT q."status"::text FROM queued q),
           ARRAY(SELECT pa."userId" FROM "participants" pa WHERE pa."conversationId" = p_conversation_id AND pa."userId" IS NOT NULL);
END
$$;
