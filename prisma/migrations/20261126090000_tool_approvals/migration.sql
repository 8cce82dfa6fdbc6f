-- Ask-first tool calls (issue 21): a call of a tool marked "ask first" waits here for the person
-- whose message started the turn, or an admin. The decision is taken once (a conditional update
-- of a pending row), and the turn, waiting with its lease given back, is woken by it or by the
-- expiry. The call's step message is in "messages"; "callId" is the model's id for the call.
CREATE TYPE "ToolApprovalStatus" AS ENUM ('pending', 'approved', 'denied', 'expired');

CREATE TABLE "tool_approvals" (
    "id" TEXT NOT NULL,
    "dispatchId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "stepMessageId" TEXT NOT NULL,
    "callId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "server" TEXT NOT NULL,
    "tool" TEXT NOT NULL,
    "arguments" TEXT NOT NULL,
    "askedByUserId" TEXT,
    "status" "ToolApprovalStatus" NOT NULL DEFAULT 'pending',
    "reason" TEXT,
    "decidedByUserId" TEXT,
    "decidedByName" TEXT,
    "decidedAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "tool_approvals_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "tool_approvals_dispatchId_callId_key" ON "tool_approvals"("dispatchId", "callId");
CREATE INDEX "tool_approvals_conversationId_status_idx" ON "tool_approvals"("conversationId", "status");
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_dispatchId_fkey" FOREIGN KEY ("dispatchId") REFERENCES "dispatches"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_stepMessageId_fkey" FOREIGN KEY ("stepMessageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_askedByUserId_fkey" FOREIGN KEY ("askedByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "tool_approvals" ADD CONSTRAINT "tool_approvals_decidedByUserId_fkey" FOREIGN KEY ("decidedByUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A turn's tool steps are found by their dispatch (resuming a turn, later turns' history).
CREATE INDEX "messages_tool_step_dispatch_idx" ON "messages" (("metadata"->>'dispatchId')) WHERE "role" = 'tool' OR "metadata" ? 'toolStep';
