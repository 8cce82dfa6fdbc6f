-- Memory stores (issue 11): knowledge, episodes, procedures.
-- Embeddings are real[] on every PostgreSQL: where pgvector exists, lib/memory/vector-store.ts adds
-- HNSW indexes on (embedding::vector(D)) once the deployment's dimension D is known (it is kept in
-- memory_settings); without pgvector, chorus_cosine_distance gives the exact answer.

CREATE TABLE "memory_settings" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "memory_settings_pkey" PRIMARY KEY ("key")
);

CREATE TABLE "knowledge_documents" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "mediaType" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    -- queued, processing, ready or failed
    "status" TEXT NOT NULL DEFAULT 'queued',
    "error" TEXT,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "chunkCount" INTEGER NOT NULL DEFAULT 0,
    -- The upload's text, kept until ingestion has indexed it.
    "text" TEXT,
    "leaseUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "knowledge_documents_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "knowledge_documents_agentId_name_idx" ON "knowledge_documents"("agentId", "name");
CREATE INDEX "knowledge_documents_status_idx" ON "knowledge_documents"("status");
ALTER TABLE "knowledge_documents" ADD CONSTRAINT "knowledge_documents_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "knowledge_chunks" (
    "id" TEXT NOT NULL,
    "documentId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "ordinal" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "embedding" REAL[] NOT NULL,

    CONSTRAINT "knowledge_chunks_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "knowledge_chunks_agentId_idx" ON "knowledge_chunks"("agentId");
CREATE INDEX "knowledge_chunks_documentId_idx" ON "knowledge_chunks"("documentId");
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_documentId_fkey" FOREIGN KEY ("documentId") REFERENCES "knowledge_documents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "knowledge_chunks" ADD CONSTRAINT "knowledge_chunks_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "episodes" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "summary" TEXT NOT NULL,
    "facts" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3) NOT NULL,
    "embedding" REAL[] NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "episodes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "episodes_agentId_userId_idx" ON "episodes"("agentId", "userId");
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "procedures" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "trigger" TEXT,
    "steps" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
    -- pending, approved or rejected: only approved procedures are ever matched
    "status" TEXT NOT NULL DEFAULT 'pending',
    -- Empty until embedded (a procedure written by hand is embedded when saved).
    "embedding" REAL[] NOT NULL DEFAULT ARRAY[]::REAL[],
    "sourceDispatchId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "procedures_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "procedures_agentId_status_idx" ON "procedures"("agentId", "status");
ALTER TABLE "procedures" ADD CONSTRAINT "procedures_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Sessions: messages after sessionClosedSeq belong to the open session; ending it writes episodes.
ALTER TABLE "conversations" ADD COLUMN "sessionClosedSeq" INTEGER NOT NULL DEFAULT 0;

-- Exact cosine distance, for a PostgreSQL without pgvector (and to check pgvector's answers).
CREATE FUNCTION "chorus_cosine_distance"(a REAL[], b REAL[]) RETURNS DOUBLE PRECISION
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 1 - sum(x::float8 * y) / NULLIF(sqrt(sum(x::float8 * x)) * sqrt(sum(y::float8 * y)), 0)
  FROM unnest(a, b) AS t(x, y)
$$;
