-- Hybrid knowledge retrieval (issue 25, item 3): full-text search over the knowledge chunks,
-- fused with the vector ranking by lib/memory/knowledge-search.ts.
--
-- The text configuration is 'english', as message search's (chorus_message_search_vector): its
-- parser keeps identifiers whole or as adjacent lexemes ("E-4471" is 'e' then '-4471', "ZX-9000"
-- 'zx' then '-9000', "O'Brien" 'o' then 'brien'), which a question's word matches as a phrase;
-- a name is stemmed the same way in the chunk and in the question, so it matches exactly; and a
-- question of stop words only gives no query at all (then vector search alone). 'simple' would
-- keep "the" and "of", and match every chunk.
--
-- A stored column rather than an expression index: ranking needs each matching chunk's tsvector,
-- which an expression index would recompute from the text for every match (about 0.45 ms a chunk
-- on the embedded database: seconds for a common word at 20,000 chunks). Computed once, as the
-- chunk is written; left out of schema.prisma like "embeddingCodes".
ALTER TABLE "knowledge_chunks" ADD COLUMN "searchVector" tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, "content")) STORED;
CREATE INDEX "knowledge_chunks_search_idx" ON "knowledge_chunks" USING gin ("searchVector");

-- The OR and the AND of tsqueries (the functions behind tsquery's || and && operators, as aggregates).
CREATE AGGREGATE "chorus_tsquery_any"(tsquery) (SFUNC = tsquery_or, STYPE = tsquery);
CREATE AGGREGATE "chorus_tsquery_all"(tsquery) (SFUNC = tsquery_and, STYPE = tsquery);

-- A question's full-text ranking: an agent's chunks of ready documents (the filter of its vector
-- search) matching the question's text query, best ts_rank first, at most p_depth: those holding
-- every word of the query, when some do; otherwise those holding any of them. A chunk naming both "Priya" and "Halvorsen" is the text ranking's evidence: listing
-- the many chunks that name only one of them would give each a share of the fused score, and those
-- the vector ranking also lists would outrank it. Each word is a phrase of its lexemes
-- (phraseto_tsquery cannot fail on any input); the words leave out
-- - words with no lexeme (stop words, punctuation): a question of only those searches nothing;
-- - common words: those whose every lexeme ANALYZE's statistics of the column find in more than
--   p_common_fraction of all chunks and in more than p_common_chunks of them. Ranking every chunk
--   that holds a word most chunks hold is what makes a search slow (all of them at 20,000 chunks:
--   a tenth of a second on the embedded database), and it ranks little (full-text ranking has no
--   inverse document frequency). The statistics are the table's, over every agent, as of the last
--   ANALYZE (each ingestion runs one); a word they do not list is rarer than those they do.
-- PL/pgSQL, planned for each call's query (force_custom_plan): only then does the planner see how
-- few chunks it matches and search the GIN index, rather than filter every chunk of the agent.
CREATE FUNCTION "chorus_knowledge_text_search"(p_agent_id TEXT, p_words TEXT[], p_depth INTEGER, p_common_fraction REAL, p_common_chunks REAL)
RETURNS TABLE ("id" TEXT) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
  v_any tsquery;
  v_all tsquery;
  v_query tsquery;
BEGIN
  WITH common AS (
    SELECT e."lexeme"
    FROM pg_stats s
    CROSS JOIN LATERAL unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs") AS e("lexeme", "frequency")
    CROSS JOIN (SELECT GREATEST(c."reltuples", 0) AS "chunks" FROM pg_class c WHERE c."oid" = '"knowledge_chunks"'::regclass) n
    WHERE s."schemaname" = current_schema() AND s."tablename" = 'knowledge_chunks' AND s."attname" = 'searchVector'
      -- The frequencies end with three figures of their own (lowest, highest, nulls), paired with no lexeme.
      AND e."lexeme" IS NOT NULL AND e."frequency" > p_common_fraction AND e."frequency" * n."chunks" > p_common_chunks
  ), words AS (
    SELECT phraseto_tsquery('english'::regconfig, w) AS "query", tsvector_to_array(to_tsvector('english'::regconfig, w)) AS "lexemes"
    FROM unnest(p_words) AS w
  )
  SELECT "chorus_tsquery_any"(words."query"), "chorus_tsquery_all"(words."query") INTO v_any, v_all FROM words
  WHERE numnode(words."query") > 0 AND EXISTS (SELECT 1 FROM unnest(words."lexemes") AS l("lexeme") WHERE l."lexeme" NOT IN (SELECT "lexeme" FROM common));
  IF v_any IS NULL THEN
    RETURN;
  END IF;
  FOREACH v_query IN ARRAY ARRAY[v_all, v_any] LOOP
    RETURN QUERY
      SELECT t."id" FROM "knowledge_chunks" t
      WHERE t."searchVector" @@ v_query AND t."agentId" = p_agent_id
        AND t."documentId" IN (SELECT d."id" FROM "knowledge_documents" d WHERE d."agentId" = p_agent_id AND d."status" = 'ready')
      ORDER BY ts_rank(t."searchVector", v_query) DESC, t."id"
      LIMIT p_depth;
    -- One word: its AND is its OR, already searched.
    EXIT WHEN FOUND OR v_all = v_any;
  END LOOP;
END
$$;

-- An agent's knowledge retrieval, stored with its other retrieval settings (semanticTopK, …) in
-- "contextSettings", which the turn's loading statement already returns: 'vector' or 'hybrid'
-- (absent: hybrid; lib/agents/agent-settings.ts).
ALTER TABLE "agents" ADD CONSTRAINT "agents_knowledge_retrieval_check"
    CHECK ("contextSettings"->>'knowledgeRetrieval' IS NULL OR "contextSettings"->>'knowledgeRetrieval' IN ('vector', 'hybrid'));
