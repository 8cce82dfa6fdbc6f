-- Retention and vector indexes (issue 17).

-- The retention sweep (lib/retention/prune-old-records.ts) finds old rows by age without reading
-- whole tables. Finished dispatches are found through dispatches_status_createdAt_idx.
CREATE INDEX "context_snapshots_createdAt_idx" ON "context_snapshots"("createdAt");
CREATE INDEX "sign_in_throttles_windowStartedAt_idx" ON "sign_in_throttles"("windowStartedAt");
CREATE INDEX "panel_turns_startedAt_idx" ON "panel_turns"("startedAt");

-- pgvector's HNSW indexes come from here, where the database has pgvector, so that start-up
-- needs no owner rights (it only checks for them: lib/memory/vector-indexes.ts). One partial
-- cosine index per table and supported dimension; a query for dimension D says
-- cardinality("embedding") = D, which lets the planner use that dimension's index. The
-- dimensions are the common embedding sizes (512: the offline model; 1536: OpenAI's default);
-- HNSW on vector indexes at most 2,000. Indexes that earlier start-ups created
-- (<table>_embedding_hnsw_<D>, for "cardinality > 0") are replaced. Without pgvector, or
-- without the right to enable it, nothing is created and search is exact.
DO $$
DECLARE
    old_index TEXT;
    vector_table TEXT;
    dimensions INTEGER;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
        RAISE NOTICE 'pgvector is not available: memory search will be exact';
        RETURN;
    END IF;
    BEGIN
        CREATE EXTENSION IF NOT EXISTS vector;
    EXCEPTION WHEN insufficient_privilege THEN
        RAISE WARNING 'pgvector is available but this role may not enable it: memory search will be exact until a database owner runs the statements Chorus logs at start-up';
        RETURN;
    END;
    FOR old_index IN
        SELECT indexname FROM pg_indexes
        WHERE schemaname = current_schema() AND indexname ~ '^(knowledge_chunks|episodes|procedures)_embedding_hnsw_[0-9]+$'
    LOOP
        EXECUTE format('DROP INDEX %I', old_index);
    END LOOP;
    FOREACH vector_table IN ARRAY ARRAY['knowledge_chunks', 'episodes', 'procedures'] LOOP
        FOREACH dimensions IN ARRAY ARRAY[256, 384, 512, 768, 1024, 1536] LOOP
            EXECUTE format(
                'CREATE INDEX %I ON %I USING hnsw (("embedding"::vector(%s)) vector_cosine_ops) WHERE cardinality("embedding") = %s',
                vector_table || '_embedding_' || dimensions || '_hnsw_idx', vector_table, dimensions, dimensions
            );
        END LOOP;
    END LOOP;
END $$;
