-- Background work that holds (issue 17): one leased-job shape for agent turns (dispatches),
-- panels, knowledge ingestion and session ends. Every leased row carries:
--   "attempt"   the fencing token: +1 on every claim, never decremented; every write of the
--               holder requires it, so a node that stalled past its lease cannot write;
--   "failures"  attempts that failed (an error, or a lease that ran out); a release at shutdown is not one;
--   "runAfter"  the backoff before a retry;
--   "leasedBy"  the node holding it (host:pid), for operators;
--   "lastError" why the last attempt failed, for the log and operators (never shown as is).

ALTER TABLE "dispatches" RENAME COLUMN "attempts" TO "attempt";
ALTER TABLE "dispatches"
    ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "runAfter" TIMESTAMP(3),
    ADD COLUMN "leasedBy" TEXT;

ALTER TABLE "panels"
    ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "runAfter" TIMESTAMP(3),
    ADD COLUMN "leasedBy" TEXT,
    ADD COLUMN "lastError" TEXT;

ALTER TABLE "knowledge_documents"
    ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "failures" INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN "runAfter" TIMESTAMP(3),
    ADD COLUMN "leasedBy" TEXT,
    ADD COLUMN "lastError" TEXT;

-- A snapshot is the answering attempt's: a late write of an earlier attempt is refused.
ALTER TABLE "context_snapshots" ADD COLUMN "attempt" INTEGER NOT NULL DEFAULT 1;

-- A session's end is recorded first (its seq range, in the statement that closes it); the
-- episodes are written by a leased job, retried until written or given up with a reason.
CREATE TABLE "session_ends" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    -- who pressed End session (told what was kept); null for the idle sweep
    "requestedBy" TEXT,
    -- pending, running, done or failed
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempt" INTEGER NOT NULL DEFAULT 0,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3),
    "leasedBy" TEXT,
    "runAfter" TIMESTAMP(3),
    "lastError" TEXT,
    "episodes" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "session_ends_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "session_ends_conversationId_toSeq_key" ON "session_ends"("conversationId", "toSeq");
-- Claims (pending, oldest first) and the retention sweep (done or failed, by age).
CREATE INDEX "session_ends_status_createdAt_idx" ON "session_ends"("status", "createdAt");
ALTER TABLE "session_ends" ADD CONSTRAINT "session_ends_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Episodes are per person: what that person said and what was said to them. A channel's
-- summary (userId null) is knowledge of that channel, recalled only there.
ALTER TABLE "episodes" ALTER COLUMN "userId" DROP NOT NULL;
ALTER TABLE "episodes"
    ADD COLUMN "sessionEndId" TEXT,
    -- how the session was summarised: whole, in N pieces, or only its latest messages
    ADD COLUMN "coverage" TEXT;
-- One episode per (session end, agent, person or channel): NULL (the channel's) counts as one value.
CREATE UNIQUE INDEX "episodes_sessionEndId_agentId_userId_key" ON "episodes"("sessionEndId", "agentId", "userId") NULLS NOT DISTINCT;
CREATE INDEX "episodes_agentId_conversationId_idx" ON "episodes"("agentId", "conversationId") WHERE "userId" IS NULL;
ALTER TABLE "episodes" ADD CONSTRAINT "episodes_sessionEndId_fkey" FOREIGN KEY ("sessionEndId") REFERENCES "session_ends"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- The idle sweep finds conversations with an open session, quiet the longest.
CREATE INDEX "conversations_open_session_updatedAt_idx" ON "conversations"("updatedAt") WHERE "lastSeq" > "sessionClosedSeq" AND "type" <> 'fork';
