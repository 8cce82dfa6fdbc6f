-- Providers (issue 23): several OpenAI-compatible endpoints side by side, each with its key sealed
-- at rest (lib/mcp/secret-box, bound to the row), and agents that pick one; agents can be deleted
-- while their messages keep their attribution.

CREATE TABLE "providers" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    -- openai, azure, ollama, vllm or other: how its address and key are used (lib/providers/provider-kinds)
    "kind" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    -- Sealed; never shown back.
    "apiKey" TEXT,
    -- Azure OpenAI's api-version.
    "apiVersion" TEXT,
    -- The model ids it listed when last tested: what agents choose from.
    "models" JSONB NOT NULL DEFAULT '[]',
    "checkedAt" TIMESTAMP(3),
    -- Moves on every change: nodes rebuild their client for it.
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "providers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "providers_projectId_name_key" ON "providers"("projectId", "name");
ALTER TABLE "providers" ADD CONSTRAINT "providers_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- An agent of a configured provider: provider 'custom' and its row.
ALTER TYPE "AgentProvider" ADD VALUE 'custom';
ALTER TABLE "agents" ADD COLUMN "providerId" TEXT;
CREATE INDEX "agents_providerId_idx" ON "agents"("providerId");
ALTER TABLE "agents" ADD CONSTRAINT "agents_providerId_fkey" FOREIGN KEY ("providerId") REFERENCES "providers"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- A deleted agent: the row stays for its messages' attribution; it leaves every conversation.
ALTER TABLE "agents" ADD COLUMN "deletedAt" TIMESTAMP(3);
