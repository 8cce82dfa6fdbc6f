-- The common words a knowledge search leaves out are read from a table of a few hundred rows
-- (issue 22: turn overhead). chorus_knowledge_text_search read them from pg_stats on every call:
-- a view over the catalogues with privilege checks, and the lexeme array cast from anyarray, about
-- 2-3 ms of every memory turn on the embedded database. The table holds what ANALYZE's statistics
-- of knowledge_chunks."searchVector" list (lexeme, frequency, the table's row estimate), copied by
-- chorus_refresh_common_lexemes after each ANALYZE Chorus runs (start-up, each ingestion:
-- lib/memory/vector-store.ts refreshStatistics). It is the database's, so every node reads the
-- same words; an ANALYZE by autovacuum alone is copied at the next ingestion or start-up, and
-- until then the words are those of the previous one (a word is left out or not, nothing more).
CREATE TABLE "knowledge_common_lexemes" (
    "lexeme" TEXT NOT NULL,
    "frequency" DOUBLE PRECISION NOT NULL,
    "chunks" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "knowledge_common_lexemes_pkey" PRIMARY KEY ("lexeme")
);

-- Replaces the table's rows with the statistics' current list. Refreshes run one at a time (the
-- lock), so two nodes ingesting at once never leave a mixture; searches read on meanwhile.
CREATE FUNCTION "chorus_refresh_common_lexemes"() RETURNS VOID LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE "knowledge_common_lexemes" IN SHARE ROW EXCLUSIVE MODE;
  DELETE FROM "knowledge_common_lexemes";
  INSERT INTO "knowledge_common_lexemes" ("lexeme", "frequency", "chunks")
  SELECT DISTINCT ON (e."lexeme") e."lexeme", e."frequency", n."chunks"
  FROM pg_stats s
  CROSS JOIN LATERAL unnest(s."most_common_elems"::text::text[], s."most_common_elem_freqs") AS e("lexeme", "frequency")
  CROSS JOIN (SELECT GREATEST(c."reltuples", 0) AS "chunks" FROM pg_class c WHERE c."oid" = '"knowledge_chunks"'::regclass) n
  WHERE s."schemaname" = current_schema() AND s."tablename" = 'knowledge_chunks' AND s."attname" = 'searchVector'
    -- The frequencies end with three figures of their own (lowest, highest, nulls), paired with no lexeme.
    AND e."lexeme" IS NOT NULL
  ORDER BY e."lexeme", e."frequency" DESC;
END
$$;

SELECT "chorus_refresh_common_lexemes"();

-- As in 20261130010000_hybrid_knowledge_retrieval, with the common words read from the table.
CREATE OR REPLACE FUNCTION "chorus_knowledge_text_search"(p_agent_id TEXT, p_words TEXT[], p_depth INTEGER, p_common_fraction REAL, p_common_chunks REAL)
RETURNS TABLE ("id" TEXT) LANGUAGE plpgsql STABLE SET plan_cache_mode = force_custom_plan AS $$
#variable_conflict use_column
DECLARE
  v_any tsquery;
  v_all tsquery;
  v_query tsquery;
BEGIN
  WITH common AS (
    SELECT c."lexeme" FROM "knowledge_common_lexemes" c
    WHERE c."frequency" > p_common_fraction AND c."frequency" * c."chunks" > p_common_chunks
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
