-- What an agent sees (issue 10).

-- The encoding a message's token count was made with: assembly reuses a count only for the same
-- encoding. User messages are counted with o200k_base (lib/conversations/post-message.ts, which
-- the posting function's callers follow); agent replies say theirs explicitly. Earlier agent
-- replies were counted with their agent's model, unknown here: left NULL, counted again when used.
ALTER TABLE "messages" ADD COLUMN "tokenEncoding" TEXT DEFAULT 'o200k_base';
UPDATE "messages" SET "tokenEncoding" = NULL WHERE "role" <> 'user' OR "tokenCount" IS NULL;

-- One snapshot per turn (a dispatch), written before the model is called; only the reply's id is
-- added afterwards. The columns repeat what the turn list shows without reading the JSON.
CREATE TABLE "context_snapshots" (
    "turnId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "answeringMessageId" TEXT NOT NULL,
    "replyMessageId" TEXT,
    "mode" TEXT NOT NULL,
    "usedTokens" INTEGER NOT NULL,
    "maxTokens" INTEGER NOT NULL,
    -- json, not jsonb: kept as written, so "messages" reads back byte for byte as sent.
    "snapshot" JSON NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "context_snapshots_pkey" PRIMARY KEY ("turnId")
);
CREATE INDEX "context_snapshots_conversationId_createdAt_idx" ON "context_snapshots"("conversationId", "createdAt");
ALTER TABLE "context_snapshots" ADD CONSTRAINT "context_snapshots_turnId_fkey" FOREIGN KEY ("turnId") REFERENCES "dispatches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "context_snapshots" ADD CONSTRAINT "context_snapshots_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "context_snapshots" ADD CONSTRAINT "context_snapshots_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The Summarize pruner's summary per conversation and agent, and the seqs it covers: later turns
-- extend it with only the newly pruned messages.
CREATE TABLE "conversation_summaries" (
    "conversationId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    "text" TEXT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "conversation_summaries_pkey" PRIMARY KEY ("conversationId", "agentId")
);
ALTER TABLE "conversation_summaries" ADD CONSTRAINT "conversation_summaries_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversation_summaries" ADD CONSTRAINT "conversation_summaries_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
