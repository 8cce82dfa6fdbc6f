-- Usage (issue 23): the tokens each model call of an agent spent, one row per turn (a dispatch's
-- reply, a panel turn), written in the transaction that stores what the turn produced. (kind,
-- turnId) is unique, so a retried write cannot count a turn twice. Rows outlive a deleted agent,
-- person or conversation: what was spent stays spent.
CREATE TABLE "usage_records" (
    "id" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "kind" TEXT NOT NULL CONSTRAINT "usage_records_kind_check" CHECK ("kind" IN ('turn', 'panel')),
    "turnId" TEXT NOT NULL,
    "agentId" TEXT,
    "userId" TEXT,
    "conversationId" TEXT,
    "provider" TEXT NOT NULL,
    "model" TEXT NOT NULL,
    "inputTokens" INTEGER NOT NULL CONSTRAINT "usage_records_input_check" CHECK ("inputTokens" >= 0),
    "outputTokens" INTEGER NOT NULL CONSTRAINT "usage_records_output_check" CHECK ("outputTokens" >= 0),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "usage_records_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "usage_records_kind_turnId_key" ON "usage_records"("kind", "turnId");
-- The monthly cap's sum, before every turn.
CREATE INDEX "usage_records_agentId_createdAt_idx" ON "usage_records"("agentId", "createdAt");
-- The usage page: a project's rows in a date range.
CREATE INDEX "usage_records_projectId_createdAt_idx" ON "usage_records"("projectId", "createdAt");
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_projectId_fkey" FOREIGN KEY ("projectId") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "usage_records" ADD CONSTRAINT "usage_records_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- An agent's monthly token cap (NULL: none) and the prices its usage is costed at (USD per
-- million tokens; NULL: not priced, counted as $0).
ALTER TABLE "agents"
  ADD COLUMN "monthlyTokenCap" INTEGER CONSTRAINT "agents_monthlyTokenCap_check" CHECK ("monthlyTokenCap" > 0),
  ADD COLUMN "inputUsdPerMillion" DOUBLE PRECISION CONSTRAINT "agents_inputUsdPerMillion_check" CHECK ("inputUsdPerMillion" >= 0),
  ADD COLUMN "outputUsdPerMillion" DOUBLE PRECISION CONSTRAINT "agents_outputUsdPerMillion_check" CHECK ("outputUsdPerMillion" >= 0);

-- Past usage, from the replies that recorded it (metadata.usage) and their earlier versions
-- (regenerated replies), once per dispatch. Copies in forks and fork results merged into their
-- parent repeat a reply's metadata and are left out. The asker is the author of the message the
-- turn answered. Panel turns before this migration stored only a total, not what it was spent
-- on, and are not counted.
INSERT INTO "usage_records" ("id", "projectId", "kind", "turnId", "agentId", "userId", "conversationId", "provider", "model", "inputTokens", "outputTokens", "createdAt")
SELECT DISTINCT ON (s."dispatchId")
       gen_random_uuid()::text, c."projectId", 'turn', s."dispatchId", s."agentId", COALESCE(asker."authorUserId", answered."authorUserId"), s."conversationId",
       COALESCE(s."metadata"->>'provider', 'offline'), COALESCE(s."metadata"->>'model', ''),
       GREATEST(0, ROUND((s."metadata"->'usage'->>'inputTokens')::numeric))::int, GREATEST(0, ROUND((s."metadata"->'usage'->>'outputTokens')::numeric))::int, s."createdAt"
FROM (
  SELECT m."metadata"->>'dispatchId' AS "dispatchId", m."authorAgentId" AS "agentId", m."conversationId", m."metadata", m."createdAt"
  FROM "messages" m
  WHERE m."role" = 'assistant' AND m."metadata" ? 'usage' AND m."metadata" ? 'dispatchId'
    AND NOT m."metadata" ? 'copiedFrom' AND m."metadata"->>'source' IS DISTINCT FROM 'specialist'
  UNION ALL
  SELECT v."metadata"->>'dispatchId', m."authorAgentId", m."conversationId", v."metadata", v."createdAt"
  FROM "message_versions" v JOIN "messages" m ON m."id" = v."messageId"
  WHERE m."role" = 'assistant' AND v."metadata" ? 'usage' AND v."metadata" ? 'dispatchId'
    AND NOT v."metadata" ? 'copiedFrom' AND v."metadata"->>'source' IS DISTINCT FROM 'specialist'
) s
JOIN "conversations" c ON c."id" = s."conversationId"
LEFT JOIN "dispatches" d ON d."id" = s."dispatchId"
LEFT JOIN "messages" asker ON asker."id" = COALESCE(d."askMessageId", d."messageId")
LEFT JOIN "messages" answered ON answered."id" = s."metadata"->>'replyToMessageId'
ORDER BY s."dispatchId", s."createdAt";
