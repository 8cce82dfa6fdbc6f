-- Files people attach to messages (issue 20). An upload is a row with no message until the
-- person sends it; the bytes live in the blob store (DATA_DIR or S3) under "storageKey", an
-- image's thumbnail under "thumbnailKey". "text" holds what an agent reads of a text-like file
-- or a PDF. Unsent uploads older than ATTACHMENT_UNSENT_HOURS are swept, with their blobs.
CREATE TABLE "attachments" (
    "id" TEXT NOT NULL,
    "conversationId" TEXT NOT NULL,
    "uploaderUserId" TEXT,
    "messageId" TEXT,
    "position" INTEGER NOT NULL DEFAULT 0,
    "name" TEXT NOT NULL,
    "mediaType" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "storageKey" TEXT NOT NULL,
    "thumbnailKey" TEXT,
    "width" INTEGER,
    "height" INTEGER,
    "text" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "attachments_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "attachments_messageId_position_idx" ON "attachments"("messageId", "position");
-- A person's quota, and their unsent uploads.
CREATE INDEX "attachments_uploaderUserId_idx" ON "attachments"("uploaderUserId");
-- The sweep of abandoned uploads.
CREATE INDEX "attachments_unsent_createdAt_idx" ON "attachments"("createdAt") WHERE "messageId" IS NULL;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "conversations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_uploaderUserId_fkey" FOREIGN KEY ("uploaderUserId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
ALTER TABLE "attachments" ADD CONSTRAINT "attachments_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
