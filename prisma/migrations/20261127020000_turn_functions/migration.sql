-- The two statements before an agent's first token, as functions (issue 22: turn overhead).
--
-- A turn's loading statement. Planning the statement took
-- as long as running it (about 5 ms of 10 on the embedded database, for a window of 50 messages);
-- a PL/pgSQL function keeps its plan between calls, as chorus_post_message does for posts.
-- lib/agents/load-turn-context.ts says what each part is for.
CREATE FUNCTION "chorus_turn_context"(
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
    ), picked AS (
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
       LIMIT CASE p_mode WHEN 'recent' THEN COALESCE(p_history_limit, 0) + 1 WHEN 'full' THEN NULL ELSE (SELECT "historyWindow" FROM agent) END)
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
      'agent', (SELECT row_to_json(agent) FROM agent),
      'watchedConversationId', (SELECT "watchedId" FROM conversation),
      'forkDepth', (SELECT "forkDepth" FROM conversation),
      'participantUserIds', ARRAY(SELECT pa."userId" FROM "participants" pa WHERE pa."conversationId" = (SELECT "watchedId" FROM conversation) AND pa."userId" IS NOT NULL),
      'window', COALESCE((SELECT json_agg(json_build_object(
          'id', r."id", 'seq', r."seq", 'role', r."role", 'content', r."content", 'authorAgentId', r."authorAgentId", 'authorUserId', r."authorUserId", 'authorName', r."authorName", 'authorHandle', r."authorHandle",
          'tokenCount', r."tokenCount", 'tokenEncoding', r."tokenEncoding",
          'kind', CASE WHEN (r."metadata"->>'isHandoffSummary')::boolean THEN 'handoff_summary' WHEN (r."metadata"->>'isToolResult')::boolean THEN 'tool_result' END,
          'toolName', r."metadata"->>'toolName', 'attachments', r."attachments", 'steps', r."steps") ORDER BY r."position")
        FROM recent r), '[]'::json)));
END
$$;

-- The dispatch worker's claim, a function for the same reason (planning it cost more than
-- running it), and so that on a shared PostgreSQL the provider's limit is counted under an
-- advisory lock in the same round trip: each statement of a PL/pgSQL function sees what committed
-- before it began, so the count follows the commit of the claim that held the lock before.
-- lib/dispatch/claim-dispatch.ts says what each condition is for; the columns set are the ones
-- every leased job's claim sets (lib/jobs/job-table.ts, claimJob).
CREATE FUNCTION "chorus_claim_dispatch"(
  p_lease_ms INTEGER,
  p_among TEXT[],
  p_provider_limit INTEGER,
  p_serialise BOOLEAN,
  p_node TEXT
) RETURNS SETOF "dispatches" LANGUAGE plpgsql AS $$
BEGIN
  IF p_serialise THEN
    PERFORM pg_advisory_xact_lock(hashtext('chorus.provider-limit'));
  END IF;
  RETURN QUERY
    WITH claimed AS (
      UPDATE "dispatches" SET "status" = 'running', "attempt" = "attempt" + 1,
        "failures" = "failures" + CASE WHEN "leaseUntil" IS NOT NULL THEN 1 ELSE 0 END,
        "leaseUntil" = now() + p_lease_ms * interval '1 millisecond', "leasedBy" = p_node, "updatedAt" = now()
      WHERE "id" = (
        SELECT d."id" FROM "dispatches" d
        WHERE ((d."status" = 'pending' AND (d."runAfter" IS NULL OR d."runAfter" <= now())) OR (d."status" = 'running' AND d."leaseUntil" < now()))
          AND (p_among IS NULL OR d."id" = ANY(p_among))
          AND NOT EXISTS (
            SELECT 1 FROM "dispatches" e
            WHERE e."agentId" = d."agentId" AND e."conversationId" = d."conversationId" AND e."id" <> d."id"
              AND e."status" IN ('pending', 'running')
              AND ((e."createdAt", e."id") < (d."createdAt", d."id") OR (e."status" = 'running' AND e."leaseUntil" >= now())))
          AND (p_provider_limit <= 0
            OR (SELECT a."provider" FROM "agents" a WHERE a."id" = d."agentId") <> 'openai'
            OR (SELECT count(*) FROM "dispatches" r JOIN "agents" ra ON ra."id" = r."agentId" WHERE r."status" = 'running' AND r."leaseUntil" >= now() AND ra."provider" = 'openai') < p_provider_limit)
        ORDER BY (SELECT max(r."updatedAt") FROM "dispatches" r WHERE r."conversationId" = d."conversationId" AND r."status" <> 'pending') NULLS FIRST, d."createdAt", d."id"
        LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING *)
    SELECT * FROM claimed;
END
$$;
