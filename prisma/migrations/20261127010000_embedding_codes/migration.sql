-- Exact memory search without pgvector (issue 22): under 100 ms at 20,000 chunks of one agent.
--
-- Comparing every row with chorus_cosine_distance costs about 65 µs a row (the SQL function's
-- unnest and sums, and reading each 2 KB real[] out of TOAST). Every vector row now also keeps a
-- compact copy of its embedding that a search reads in one statement and scores in JavaScript
-- (lib/memory/exact-search.ts): 7-bit codes, one ASCII character per dimension, so they arrive
-- as short text, without JSON or number parsing; with them, bounds that make the scores exact
-- where it matters: the rows whose bound reaches the top-k are ranked again by
-- chorus_cosine_distance, as before, so the results and scores are the same as a full scan's.
--
-- chorus_embedding_codes(e), for a vector with a norm, is 32 + D characters:
--   hex of float8 s/‖e‖  (16)   s = max |e_i| / 63, the step of the codes
--   hex of float8 r/‖e‖  (16)   r = ‖e − s·c‖, the quantisation error
--   D characters chr(c_i + 64), c_i = round(e_i / s) in -63..63 (characters 1 to 127: ASCII)
-- For any query q: cos(q, e) = (s/‖e‖)·(q·c)/‖q‖ ± r/‖e‖ (Cauchy–Schwarz). A vector without a
-- finite norm (all zeros, empty, or holding NaN or infinity) has NULL: its cosine is undefined
-- (chorus_cosine_distance gives NULL or NaN, ranked after every number).
CREATE FUNCTION "chorus_embedding_codes"(e REAL[]) RETURNS TEXT
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
    step DOUBLE PRECISION;
    norm DOUBLE PRECISION;
    residual DOUBLE PRECISION;
    codes TEXT;
BEGIN
    -- Two aggregates over unnest: quicker than a loop over the elements.
    SELECT max(abs(x::float8)), sqrt(sum(x::float8 * x)) INTO step, norm FROM unnest(e) AS u(x);
    -- NaN compares above every number in PostgreSQL: this also turns away NaN and infinity.
    IF NOT coalesce(norm > 0 AND norm < 'Infinity', false) THEN
        RETURN NULL;
    END IF;
    step := step / 63;
    SELECT string_agg(chr(code + 64), '' ORDER BY n), sqrt(sum((x - code * step) ^ 2)) INTO codes, residual
    FROM (SELECT x::float8 AS x, n, round(x / step)::int AS code FROM unnest(e) WITH ORDINALITY AS u(x, n)) AS coded;
    RETURN encode(float8send(step / norm), 'hex') || encode(float8send(residual / norm), 'hex') || codes;
END
$$;

-- Generated, so every writer of "embedding" (ingestion, episodes, procedures, reembed, scripts)
-- keeps them right, and this rewrite converts the rows already stored. Stored in the row (MAIN:
-- never moved out to TOAST below a page), so a search reads only the table's own pages.
ALTER TABLE "knowledge_chunks"
    ADD COLUMN "embeddingCodes" TEXT GENERATED ALWAYS AS (chorus_embedding_codes("embedding")) STORED,
    ALTER COLUMN "embeddingCodes" SET STORAGE MAIN;
ALTER TABLE "episodes"
    ADD COLUMN "embeddingCodes" TEXT GENERATED ALWAYS AS (chorus_embedding_codes("embedding")) STORED,
    ALTER COLUMN "embeddingCodes" SET STORAGE MAIN;
ALTER TABLE "procedures"
    ADD COLUMN "embeddingCodes" TEXT GENERATED ALWAYS AS (chorus_embedding_codes("embedding")) STORED,
    ALTER COLUMN "embeddingCodes" SET STORAGE MAIN;
