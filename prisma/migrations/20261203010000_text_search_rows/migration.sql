-- Knowledge's text search returns at most its depth (CANDIDATES, 40, in lib/memory/knowledge-search.ts), and the planner is told so.
-- Assumed to return 1,000 rows, the statement that joins its ids to their chunks (lib/memory/
-- knowledge-search.ts) read every chunk of the table into a hash instead of looking each id up.
ALTER FUNCTION "chorus_knowledge_text_search"(TEXT, TEXT[], INTEGER, REAL, REAL) ROWS 40;
