-- Panels (issue 13): several agents answer one question, see each other's answers and vote.

-- A context snapshot's turn is a dispatch or a panel turn (each start or restart of a panel agent).
ALTER TABLE "context_snapshots" DROP CONSTRAINT "context_snapshots_turnId_fkey";

-- A panel an admin saved under a handle (@review-board): its agents and limits.
CREATE TABLE "saved_panels" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "handle" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "agentIds" TEXT[] NOT NULL,
    "maxRounds" INTEGER NOT NULL DEFAULT 3,
    "tokenCap" INTEGER NOT NULL DEFAULT 20000,
    "timeLimitSeconds" INTEGER NOT NULL DEFAULT 120,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "saved_panels_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "saved_panels_projectId_handle_key" ON "saved_panels"("projectId", "handle");
ALTER TABLE "saved_panels" ADD CONSTRAINT "saved_panels_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One panel run, answering one question; leased by the node that coordinates it.
CREATE TABLE "panels" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "questionMessageId" TEXT NOT NULL,
    "savedPanelId" TEXT,
    "agentIds" TEXT[] NOT NULL,
    -- running or finished
    "status" TEXT NOT NULL DEFAULT 'running',
    -- all_voted, max_rounds, time, tokens or failed
    "endedReason" TEXT,
    "maxRounds" INTEGER NOT NULL,
    "tokenCap" INTEGER NOT NULL,
    "deadline" TIMESTAMP(3) NOT NULL,
    "tokensUsed" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3),
    "finalMessageId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "panels_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "panels_questionMessageId_key" ON "panels"("questionMessageId");
CREATE INDEX "panels_status_idx" ON "panels"("status");
ALTER TABLE "panels" ADD CONSTRAINT "panels_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panels" ADD CONSTRAINT "panels_questionMessageId_fkey" FOREIGN KEY ("questionMessageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panels" ADD CONSTRAINT "panels_savedPanelId_fkey" FOREIGN KEY ("savedPanelId") REFERENCES "saved_panels"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- Each start or restart of a panel agent; its context snapshot has the same id.
CREATE TABLE "panel_turns" (
    "id" TEXT NOT NULL,
    "panelId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "round" INTEGER NOT NULL,
    -- working, answered, voted, restarted or failed
    "status" TEXT NOT NULL DEFAULT 'working',
    "tokens" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "endedAt" TIMESTAMP(3),

    CONSTRAINT "panel_turns_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "panel_turns_panelId_idx" ON "panel_turns"("panelId");
ALTER TABLE "panel_turns" ADD CONSTRAINT "panel_turns_panelId_fkey" FOREIGN KEY ("panelId") REFERENCES "panels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panel_turns" ADD CONSTRAINT "panel_turns_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Answers as agents gave them; an agent's latest is its current answer.
CREATE TABLE "panel_answers" (
    "id" TEXT NOT NULL,
    "panelId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "panel_answers_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "panel_answers_panelId_idx" ON "panel_answers"("panelId");
ALTER TABLE "panel_answers" ADD CONSTRAINT "panel_answers_panelId_fkey" FOREIGN KEY ("panelId") REFERENCES "panels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panel_answers" ADD CONSTRAINT "panel_answers_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Votes as agents cast them; an agent's latest is its vote, valid while the answer is current.
CREATE TABLE "panel_votes" (
    "id" TEXT NOT NULL,
    "panelId" TEXT NOT NULL,
    "voterAgentId" TEXT NOT NULL,
    "answerId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "turnId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "panel_votes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "panel_votes_panelId_idx" ON "panel_votes"("panelId");
ALTER TABLE "panel_votes" ADD CONSTRAINT "panel_votes_panelId_fkey" FOREIGN KEY ("panelId") REFERENCES "panels"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panel_votes" ADD CONSTRAINT "panel_votes_voterAgentId_fkey" FOREIGN KEY ("voterAgentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "panel_votes" ADD CONSTRAINT "panel_votes_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "panel_answers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
