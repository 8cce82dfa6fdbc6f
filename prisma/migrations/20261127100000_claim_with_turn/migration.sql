-- A claimed agent turn comes with its loading (issue 22: turn overhead). The claim and the
-- turn's loading were two round trips in a row before every first token; the dispatch worker
-- now claims with one statement that also returns what chorus_turn_context loads for the turn
-- it took (lib/dispatch/claim-dispatch.ts).
--
-- The loading of a claimed dispatch, as the claim's statement calls it. One that fails (a
-- message's metadata unreadable, say) gives NULL instead of failing the claim, which would leave
-- the dispatch pending, to be claimed and fail again for ever; the turn then loads on its own,
-- fails as any turn fails, and is given up on after its attempts with a visible message.
CREATE FUNCTION "chorus_claimed_turn_context"(p_dispatch "dispatches") RETURNS JSON LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN "chorus_turn_context"(p_dispatch."agentId", p_dispatch."conversationId", COALESCE(p_dispatch."askMessageId", p_dispatch."messageId"),
    p_dispatch."messageId", p_dispatch."mode", p_dispatch."historyLimit");
EXCEPTION WHEN OTHERS THEN
  RETURN NULL;
END
$$;
