-- A turn's history window comes back as columns, one array per field in the window's order,
-- instead of one JSON object per message: on the embedded database, building fifteen-key objects
-- for fifty messages was most of the turn's loading (2.2 to 3.0 ms against 1.6 to 2.0 as
-- columns, measured back to back on the same window). lib/agents/load-turn-context.ts turns the
-- columns back into messages. NULL when the window is empty.
--
-- The window is a function of its own, so a later change to it leaves chorus_turn_context alone.
-- chorus_turn_context is the one of 20261203020000_turn_procedures_without_embeddings with its
-- window from chorus_turn_window.
CREATE FUNCTION "chorus_turn_window"(
  p_agent_id TEXT,
  p_conversation_id TEXT,
  p_ask_id TEXT,
  p_message_id TEXT,
  p_mode TEXT,
  p_history_limit INTEGER,
  p_history_window INTEGER
) RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    WITH picked AS (
      (SELECT m."id", m."seq" AS "position"
       FROM "messages" m
       WHERE m."conversationId" = p_conversation_id AND m."role" <> 'system'
         -- Tool steps take no place in the window: they come with the reply they led to.
         AND m."role" <> 'tool' AND NOT (m."metadata" ? 'toolStep')
         -- Tombstones take no place in the window (the message answered is kept, to fail clearly).
         AND (m."deletedAt" IS NULL OR m."id" = p_ask_id)
         AND m."seq" <= (SELECT a."seq" FROM "messages" a WHERE a."id" = p_ask_id)
         AND (p_mode <> 'summary' OR m."id" = p_ask_id)
       ORDER BY m."seq" DESC
       LIMIT CASE p_mode WHEN 'recent' THEN COALESCE(p_history_limit, 0) + 1 WHEN 'full' THEN NULL ELSE p_history_window END)
      UNION ALL
      -- Summary mode: the handoff message (written after the person's) comes first.
      SELECT h."id", -1 AS "position" FROM "messages" h WHERE p_mode = 'summary' AND h."id" = p_message_id
    ), recent AS (
      SELECT m."id", m."seq", p."position", m."role", m."content", m."authorAgentId", m."authorUserId", u."name" AS "authorName", COALESCE(u."handle", a."handle") AS "authorHandle",
             m."tokenCount", m."tokenEncoding", m."metadata",
             (SELECT json_agg(json_build_object('id', f."id", 'name', f."name", 'mediaType', f."mediaType", 'bytes', f."bytes", 'text', f."text") ORDER BY f."position")
              FROM "attachments" f WHERE f."messageId" = m."id") AS "attachments",
             -- The agent's own replies bring the tool steps that led to them (found by their dispatch).
             CASE WHEN m."authorAgentId" = p_agent_id AND m."role" = 'assistant' AND m."metadata" ? 'dispatchId' THEN
               (SELECT json_agg(json_build_object('id', s."id", 'seq', s."seq", 'role', s."role", 'content', s."content", 'metadata', s."metadata") ORDER BY s."seq")
                FROM "messages" s
                WHERE s."metadata"->>'dispatchId' = m."metadata"->>'dispatchId' AND (s."role" = 'tool' OR s."metadata" ? 'toolStep') AND s."conversationId" = m."conversationId")
             END AS "steps"
      FROM picked p
      JOIN "messages" m ON m."id" = p."id"
      LEFT JOIN "users" u ON u."id" = m."authorUserId"
      LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
    )
    SELECT json_build_object(
        'id', array_agg(r."id" ORDER BY r."position"),
        'seq', array_agg(r."seq" ORDER BY r."position"),
        'role', array_agg(r."role" ORDER BY r."position"),
        'content', array_agg(r."content" ORDER BY r."position"),
        'authorAgentId', array_agg(r."authorAgentId" ORDER BY r."position"),
        'authorUserId', array_agg(r."authorUserId" ORDER BY r."position"),
        'authorName', array_agg(r."authorName" ORDER BY r."position"),
        'authorHandle', array_agg(r."authorHandle" ORDER BY r."position"),
        'tokenCount', array_agg(r."tokenCount" ORDER BY r."position"),
        'tokenEncoding', array_agg(r."tokenEncoding" ORDER BY r."position"),
        'kind', array_agg(CASE WHEN (r."metadata"->>'isHandoffSummary')::boolean THEN 'handoff_summary' WHEN (r."metadata"->>'isToolResult')::boolean THEN 'tool_result' END ORDER BY r."position"),
        'toolName', array_agg(r."metadata"->>'toolName' ORDER BY r."position"),
        'attachments', array_agg(r."attachments" ORDER BY r."position"),
        'steps', array_agg(r."steps" ORDER BY r."position"))
    FROM recent r
    HAVING count(*) > 0);
END
$$;

CREATE OR REPLACE FUNCTION "chorus_turn_context"(
  p_agent_id TEXT,
  p_conversation_id TEXT,
  p_ask_id TEXT,
  p_message_id TEXT,
  p_mode TEXT,
  p_history_limit INTEGER
) RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN (
    WITH agent AS (
      SELECT a."id", a."handle", a."displayName", a."color", a."systemPrompt", a."provider", a."model", a."temperature", a."maxOutputTokens", a."historyWindow",
             a."contextSettings", a."handoffSettings", a."projectId", EXISTS (SELECT 1 FROM "agent_tools" t WHERE t."agentId" = a."id") AS "hasTools",
             (SELECT COALESCE(json_agg(json_build_object('id', s."id", 'handle', s."handle", 'displayName', s."displayName", 'description', s."description", 'enabled', s."enabled")), '[]'::json)
              FROM "agents" s
              WHERE s."projectId" = a."projectId" AND s."id" IN (
                SELECT x->>'agentId' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a."handoffSettings"->'specialists') = 'array' THEN a."handoffSettings"->'specialists' ELSE '[]'::jsonb END) x
              )) AS "specialistAgents"
      FROM "agents" a WHERE a."id" = p_agent_id
    ), conversation AS (
      SELECT COALESCE(c."rootConversationId", c."id") AS "watchedId", c."forkDepth" FROM "conversations" c WHERE c."id" = p_conversation_id
    )
    SELECT json_build_object(
      'agent', (SELECT row_to_json(agent) FROM agent),
      'watchedConversationId', (SELECT "watchedId" FROM conversation),
      'forkDepth', (SELECT "forkDepth" FROM conversation),
      -- What the agent, and the person asking, have in memory: the turn embeds its question only if
      -- a search needs it, and can start that as soon as this returns (lib/memory/memory-stores.ts).
      'memory', json_build_object(
        'knowledge', EXISTS (SELECT 1 FROM "knowledge_chunks" k WHERE k."agentId" = p_agent_id),
        'episodes', EXISTS (SELECT 1 FROM "episodes" e WHERE e."agentId" = p_agent_id
          AND (e."userId" = (SELECT q."authorUserId" FROM "messages" q WHERE q."id" = p_ask_id) OR (e."userId" IS NULL AND e."conversationId" = p_conversation_id))),
        'procedures', COALESCE((SELECT json_agg(json_build_object('id', p."id", 'name', p."name", 'trigger', p."trigger", 'steps', p."steps") ORDER BY p."updatedAt" DESC)
          FROM "procedures" p WHERE p."agentId" = p_agent_id AND p."status" = 'approved'), '[]'::json)),
      'participantUserIds', ARRAY(SELECT pa."userId" FROM "participants" pa WHERE pa."conversationId" = (SELECT "watchedId" FROM conversation) AND pa."userId" IS NOT NULL),
      'window', "chorus_turn_window"(p_agent_id, p_conversation_id, p_ask_id, p_message_id, p_mode, p_history_limit, (SELECT "historyWindow" FROM agent))));
END
$$;
