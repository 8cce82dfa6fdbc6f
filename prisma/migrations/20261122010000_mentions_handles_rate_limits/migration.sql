-- AlterTable: users get a unique handle for @mentions; existing rows get one from their email.
ALTER TABLE "users" ADD COLUMN "handle" TEXT;
UPDATE "users" SET "handle" = lower(regexp_replace(split_part("email", '@', 1), '[^a-zA-Z0-9_.-]', '', 'g')) || '-' || substr(md5("id"), 1, 4);
ALTER TABLE "users" ALTER COLUMN "handle" SET NOT NULL;

-- CreateTable
CREATE TABLE "message_mentions" (
    "id" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "userId" TEXT,
    "agentId" TEXT,

    CONSTRAINT "message_mentions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "message_mentions_one_party_check" CHECK (("userId" IS NULL) <> ("agentId" IS NULL))
);

-- CreateTable
CREATE TABLE "rate_buckets" (
    "userId" TEXT NOT NULL,
    "tokens" DOUBLE PRECISION NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "rate_buckets_pkey" PRIMARY KEY ("userId")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_handle_key" ON "users"("handle");

-- CreateIndex
CREATE UNIQUE INDEX "message_mentions_messageId_userId_key" ON "message_mentions"("messageId", "userId");

-- CreateIndex
CREATE UNIQUE INDEX "message_mentions_messageId_agentId_key" ON "message_mentions"("messageId", "agentId");

-- CreateIndex
CREATE INDEX "message_mentions_userId_conversationId_seq_idx" ON "message_mentions"("userId", "conversationId", "seq");

-- AddForeignKey
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "message_mentions" ADD CONSTRAINT "message_mentions_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "agents"("id") ON DELETE CASCADE ON UPDATE CASCADE;
