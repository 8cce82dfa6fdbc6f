-- Posting a question to an agent is one statement again (issue 22: turn overhead). A post with
-- @mentions first asked whether a mention named a saved panel (lib/panels/plan-panel.ts), a
-- statement of its own, about 2 ms on the embedded database, before every agent question.
-- chorus_post_unless_saved_panel answers that inside the post: when a mention names one of the
-- project's saved panels it writes nothing and returns only "refused" = 'saved_panel' (the
-- caller then plans the panel and posts in one transaction, as before); otherwise it is
-- chorus_post_message, same arguments, same result.
CREATE FUNCTION "chorus_post_unless_saved_panel"(
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
BEGIN
  IF EXISTS (
    SELECT 1 FROM "conversations" c JOIN "saved_panels" s ON s."projectId" = c."projectId"
    WHERE c."id" = p_conversation_id AND s."handle" = ANY(p_handles)
  ) THEN
    "refused" := 'saved_panel';
    RETURN NEXT;
    RETURN;
  END IF;
  RETURN QUERY SELECT * FROM "chorus_post_message"(p_message_id, p_conversation_id, p_client_id, p_user_id, p_content, p_metadata, p_token_count,
    p_created_at, p_handles, p_rate_limit, p_refill_per_s, p_max_open_in_conversation, p_max_open_by_person, p_reply_to);
END
$$;
