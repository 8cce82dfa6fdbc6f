-- Handoffs and forked contexts (issue 12).

-- An orchestrator's specialists (each with its context-sharing mode), routing rules for the
-- offline model and the handoff depth limit, validated by lib/handoffs/handoff-settings.ts.
ALTER TABLE "agents" ADD COLUMN "handoffSettings" JSONB NOT NULL DEFAULT '{}';

-- A turn that follows a handoff answers the person's message (askMessageId) from the handoff
-- message it was dispatched on (messageId), with the sharing mode's history.
ALTER TABLE "dispatches" ADD COLUMN "askMessageId" TEXT;
ALTER TABLE "dispatches" ADD COLUMN "mode" TEXT NOT NULL DEFAULT 'direct';
-- recent: how many messages; fork: unused (the fork holds its copies).
ALTER TABLE "dispatches" ADD COLUMN "historyLimit" INTEGER;
-- Handoffs made so far for the person's message; at the orchestrator's limit it answers itself.
ALTER TABLE "dispatches" ADD COLUMN "depth" INTEGER NOT NULL DEFAULT 0;
-- false after a refused handoff: the orchestrator answers itself.
ALTER TABLE "dispatches" ADD COLUMN "allowHandoff" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_askMessageId_fkey" FOREIGN KEY ("askMessageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A forked context: a conversation of its own, readable by the participants of the conversation
-- at the root of its fork chain, written to only by its specialist.
ALTER TYPE "ConversationType" ADD VALUE 'fork';
ALTER TABLE "conversations" ADD COLUMN "parentConversationId" TEXT;
ALTER TABLE "conversations" ADD COLUMN "rootConversationId" TEXT;
ALTER TABLE "conversations" ADD COLUMN "forkedFromMessageId" TEXT;
ALTER TABLE "conversations" ADD COLUMN "forkAgentId" TEXT;
-- 1 for a fork of an ordinary conversation, 2 for a fork of a fork, …
ALTER TABLE "conversations" ADD COLUMN "forkDepth" INTEGER NOT NULL DEFAULT 0;
-- running or finished (its result merged into the parent); null for ordinary conversations.
ALTER TABLE "conversations" ADD COLUMN "forkStatus" TEXT;
CREATE INDEX "conversations_parentConversationId_idx" ON "conversations"("parentConversationId");
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_parentConversationId_fkey" FOREIGN KEY ("parentConversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_rootConversationId_fkey" FOREIGN KEY ("rootConversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_forkAgentId_fkey" FOREIGN KEY ("forkAgentId") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;
