-- Message search (issue 19): full-text search over the conversations a person takes part in
-- (lib/search/search-messages.ts calls chorus_search_messages, at the end).
--
-- The index holds each message's English words and lexemes naming where, when and by whom it was
-- written: its conversation, its conversation and month, and its author. They start with U+0001,
-- which no text parser puts in a lexeme (control characters are blanks to it). A search asks for
-- its words AND any of the searcher's conversations, so the index itself intersects the two: a
-- common word matching a third of all messages costs what its matches in the person's
-- conversations cost, not a read of every message that contains it. The monthly lexemes let a
-- search look at the recent months first: when they hold enough matches, the newest (those a
-- search ranks) are all there. btree_gin could index the conversation as a second column, but
-- the embedded database (PGlite) does not load it.
--
-- SQL functions this simple are inlined by the planner, so a query calling
-- chorus_message_search_vector matches the index's expression. Its body calls built-in
-- functions only: PostgreSQL 17 builds and analyses indexes with search_path = pg_catalog.

-- Lexemes: U+0001, then "c" and the conversation's id (with "/yyyymm", the UTC month the row
-- stores, for the monthly one), or "a" and the author's id.
CREATE FUNCTION "chorus_message_search_vector"("content" TEXT, "conversationId" TEXT, "createdAt" TIMESTAMP, "authorId" TEXT) RETURNS tsvector
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT to_tsvector('english', "content")
                 || array_to_tsvector(array_remove(ARRAY[
                      chr(1) || 'c' || "conversationId",
                      chr(1) || 'c' || "conversationId" || '/' || (date_part('year', "createdAt")::int * 100 + date_part('month', "createdAt")::int)::text,
                      chr(1) || 'a' || "authorId"], NULL)) $$;

-- One of those lexemes, quoted for tsquery (a quote doubled, a backslash escaped), so an id is
-- taken literally whatever it holds.
CREATE FUNCTION "chorus_search_lexeme"("lexeme" TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT '''' || replace(replace(chr(1) || "lexeme", '\', '\\'), '''', '''''') || '''' $$;

-- Matches the messages of any of these conversations; given months (a moment in each), of any of
-- them in those months. NULL for no conversation: matches nothing.
CREATE FUNCTION "chorus_conversations_search_query"("conversationIds" TEXT[], "months" TIMESTAMP[] DEFAULT NULL) RETURNS tsquery
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT string_agg("chorus_search_lexeme"(lexeme), ' | ')::tsquery
          FROM (SELECT 'c' || id AS lexeme FROM unnest("conversationIds") AS id WHERE "months" IS NULL
                UNION ALL
                SELECT 'c' || id || '/' || (date_part('year', month)::int * 100 + date_part('month', month)::int)::text
                FROM unnest("conversationIds") AS id, unnest("months") AS month) AS lexemes $$;

-- Built inside the migration's transaction: on a large table, writes to messages wait for it.
CREATE INDEX "messages_search_idx" ON "messages" USING gin (
    "chorus_message_search_vector"("content", "conversationId", "createdAt", COALESCE("authorUserId", "authorAgentId")));

-- Searching, as one function: PL/pgSQL keeps each statement's plan for the session, where the
-- same statements sent from the application would be planned again on every search (on the
-- embedded database, planning them can take longer than running them). The plans are generic
-- (no per-call planning): what they depend on is data they read, not their arguments; only the
-- person's conversations are looked up with a plan of their own.
--
-- The access rule is part of every statement: only messages of conversations p_user_id takes part
-- in (never forks, which have no participants) are found or counted; their lexemes are the
-- condition, exact whichever plan runs. (A btree-indexable condition on "conversationId" as well
-- would tempt the planner into reading every message of those conversations.) A filter by
-- author asks for the author's lexeme too. Deleted and system messages are never found.
--
-- Only the newest p_candidates + 1 matches are candidates (a common word matches thousands), and
-- they are found in widening stretches of time up to now: from the start of last month, then all
-- time. A stretch with more than p_candidates matches, or one that holds all of the search's time
-- (p_after), holds the newest: the wider one is not searched. (A stretch in between costs more
-- than it saves: GIN checks every message of its months against the OR of their lexemes.) Only the candidates are ranked, only a page of them gets a headline:
-- p_headline_options mark its matches with U+0002 and U+0003, which are removed from the text
-- first (lib/search/snippet.ts). The first row always comes, with "total" (candidates counted),
-- "nodes" and "tree" (numnode and querytree of the parsed search: 0, or 'T' for only exclusions,
-- mean nothing to search for, and nothing was scanned); "id" is null when no message is on the
-- page.
-- To change it, add a migration with CREATE OR REPLACE FUNCTION: applied migrations are immutable.
CREATE FUNCTION "chorus_search_messages"(
  p_user_id TEXT,
  p_search TEXT,
  p_conversation_id TEXT,
  p_author_id TEXT,
  p_after TIMESTAMP(3),
  p_before TIMESTAMP(3),
  p_candidates INTEGER,
  p_limit INTEGER,
  p_offset INTEGER,
  p_headline_options TEXT
) RETURNS TABLE (
  "total" INTEGER,
  "nodes" INTEGER,
  "tree" TEXT,
  "id" TEXT,
  "conversationId" TEXT,
  "conversationTitle" TEXT,
  "seq" INTEGER,
  "authorKind" TEXT,
  "authorId" TEXT,
  "authorName" TEXT,
  "createdAt" TIMESTAMP(3),
  "headline" TEXT,
  "rank" REAL
) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
DECLARE
  v_words tsquery := websearch_to_tsquery('english', p_search);
  v_wanted tsquery;
  v_conversation_ids TEXT[];
  v_now TIMESTAMP := now() AT TIME ZONE 'UTC';
  v_since TIMESTAMP;
  v_ids TEXT[];
BEGIN
  IF numnode(v_words) > 0 AND querytree(v_words) <> 'T' THEN
    -- The words, and the author's lexeme when the search names one.
    v_wanted := CASE WHEN p_author_id IS NULL THEN v_words ELSE v_words && "chorus_search_lexeme"('a' || p_author_id)::tsquery END;
    -- Planned for this person (one in a few conversations or in thousands needs another plan).
    EXECUTE 'SELECT ARRAY(SELECT c."id" FROM "participants" p JOIN "conversations" c ON c."id" = p."conversationId"
                          WHERE p."userId" = $1 AND c."type" <> ''fork'' AND ($2::text IS NULL OR c."id" = $2))'
      INTO v_conversation_ids USING p_user_id, p_conversation_id;
    FOREACH v_since IN ARRAY ARRAY[date_trunc('month', v_now - interval '1 month'), NULL]::timestamp[] LOOP
      -- A stretch that ends before the search's time holds nothing: a wider one follows.
      CONTINUE WHEN v_since IS NOT NULL AND p_before <= v_since;
      IF v_since IS NOT NULL THEN
        -- The monthly lexemes of the stretch (to next month: clocks differ) in one tsquery with the
        -- words: GIN walks them and checks the words, quickest when the words are common.
        SELECT array_agg(h."id") INTO v_ids FROM (
          SELECT m."id" FROM "messages" m
          WHERE "chorus_message_search_vector"(m."content", m."conversationId", m."createdAt", COALESCE(m."authorUserId", m."authorAgentId"))
                  @@ (v_wanted && "chorus_conversations_search_query"(v_conversation_ids, ARRAY(SELECT generate_series(v_since, v_now + interval '1 month', interval '1 month'))))
            AND m."deletedAt" IS NULL AND m."role" <> 'system'
            AND (p_after IS NULL OR m."createdAt" >= p_after) AND (p_before IS NULL OR m."createdAt" < p_before)
          ORDER BY m."createdAt" DESC, m."id" DESC
          LIMIT p_candidates + 1) h;
      ELSE
        -- All time, the words and the conversations as two tsqueries: GIN steps from match to
        -- match of each, quickest when the words are rare (the last stretch did not hold enough).
        SELECT array_agg(h."id") INTO v_ids FROM (
          SELECT m."id" FROM "messages" m
          WHERE "chorus_message_search_vector"(m."content", m."conversationId", m."createdAt", COALESCE(m."authorUserId", m."authorAgentId")) @@ v_wanted
            AND "chorus_message_search_vector"(m."content", m."conversationId", m."createdAt", COALESCE(m."authorUserId", m."authorAgentId"))
                  @@ "chorus_conversations_search_query"(v_conversation_ids)
            AND m."deletedAt" IS NULL AND m."role" <> 'system'
            AND (p_after IS NULL OR m."createdAt" >= p_after) AND (p_before IS NULL OR m."createdAt" < p_before)
          ORDER BY m."createdAt" DESC, m."id" DESC
          LIMIT p_candidates + 1) h;
      END IF;
      EXIT WHEN cardinality(v_ids) > p_candidates OR p_after >= v_since;
    END LOOP;
  END IF;

  RETURN QUERY
    WITH page AS (
      SELECT m.*, ts_rank_cd(to_tsvector('english', m."content"), v_words, 1) AS "rank"
      FROM "messages" m
      WHERE m."id" = ANY (v_ids)
      ORDER BY "rank" DESC, m."createdAt" DESC, m."id" DESC
      LIMIT p_limit OFFSET p_offset
    )
    SELECT COALESCE(cardinality(v_ids), 0), numnode(v_words), querytree(v_words), p."id", p."conversationId",
           -- The sidebar's name for it (lib/conversations/list-conversations.ts): a channel's or an
           -- agent chat's own title, else the other party's name.
           CASE WHEN c."type" = 'group' OR (c."type" = 'agent_dm' AND c."title" <> '') THEN c."title"
                ELSE COALESCE((SELECT COALESCE(oa."displayName", ou."name") FROM "participants" o
                               LEFT JOIN "users" ou ON ou."id" = o."userId" LEFT JOIN "agents" oa ON oa."id" = o."agentId"
                               WHERE o."conversationId" = c."id" AND o."userId" IS DISTINCT FROM p_user_id LIMIT 1), 'Unknown') END,
           p."seq",
           CASE WHEN u."id" IS NOT NULL THEN 'user' WHEN a."id" IS NOT NULL THEN 'agent' END,
           COALESCE(u."id", a."id"), COALESCE(u."name", a."displayName"), p."createdAt",
           ts_headline('english', translate(p."content", chr(2) || chr(3), ''), v_words, p_headline_options),
           p."rank"
    FROM (SELECT 1) AS one
    LEFT JOIN (page p JOIN "conversations" c ON c."id" = p."conversationId"
               LEFT JOIN "users" u ON u."id" = p."authorUserId"
               LEFT JOIN "agents" a ON a."id" = p."authorAgentId") ON true
    ORDER BY p."rank" DESC, p."createdAt" DESC, p."id" DESC;
END $$;
