-- Posting and claiming return one row at most, and the planner is told so. A function that
-- returns a set is otherwise assumed to return 1,000 rows: a post that claims the turn it starts
-- in its own statement (lib/conversations/post-message.ts) runs the claim once per row of the
-- post, and was priced at about 270,000, far above PostgreSQL's jit_above_cost (100,000), so
-- every such post was compiled by JIT first: 300 ms instead of 3.
ALTER FUNCTION "chorus_post_message"(TEXT, TEXT, TEXT, TEXT, TEXT, JSONB, INTEGER, TIMESTAMP(3), TEXT[], DOUBLE PRECISION, DOUBLE PRECISION, INTEGER, INTEGER, TEXT) ROWS 1;
ALTER FUNCTION "chorus_post_unless_saved_panel"(TEXT, TEXT, TEXT, TEXT, TEXT, JSONB, INTEGER, TIMESTAMP(3), TEXT[], DOUBLE PRECISION, DOUBLE PRECISION, INTEGER, INTEGER, TEXT) ROWS 1;
ALTER FUNCTION "chorus_claim_dispatch"(INTEGER, TEXT[], INTEGER, BOOLEAN, TEXT) ROWS 1;
