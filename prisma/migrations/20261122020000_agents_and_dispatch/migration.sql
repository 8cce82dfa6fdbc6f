-- CreateEnum
CREATE TYPE "DispatchStatus" AS ENUM ('pending', 'running', 'done', 'failed');

-- AlterTable
ALTER TABLE "agents" ADD COLUMN "temperature" DOUBLE PRECISION NOT NULL DEFAULT 0.7,
ADD COLUMN "maxOutputTokens" INTEGER NOT NULL DEFAULT 1024,
ADD COLUMN "historyWindow" INTEGER NOT NULL DEFAULT 50,
ADD COLUMN "contextSettings" JSONB NOT NULL DEFAULT '{}';

-- CreateTable
CREATE TABLE "dispatches" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "status" "DispatchStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "replyMessageId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "dispatches_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "dispatches_messageId_agentId_key" ON "dispatches"("messageId", "agentId");

-- CreateIndex
CREATE INDEX "dispatches_status_createdAt_idx" ON "dispatches"("status", "createdAt");

-- CreateIndex
CREATE INDEX "dispatches_agentId_conversationId_createdAt_idx" ON "dispatches"("agentId", "conversationId", "createdAt");

-- AddForeignKey
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
