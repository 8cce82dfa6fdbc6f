-- Unread @mentions kept as a counter next to the read position, so the sidebar's counts for
-- every conversation need no per-conversation count (it was most of that query's time).
ALTER TABLE "read_states" ADD COLUMN "unreadMentions" INTEGER NOT NULL DEFAULT 0;

-- Someone mentioned in a conversation they never opened has read nothing of it.
INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
SELECT DISTINCT m."userId", m."conversationId", 0, now()
FROM "message_mentions" m
WHERE m."userId" IS NOT NULL
ON CONFLICT ("userId", "conversationId") DO NOTHING;

UPDATE "read_states" r SET "unreadMentions" = (
  SELECT count(*) FROM "message_mentions" m
  WHERE m."userId" = r."userId" AND m."conversationId" = r."conversationId" AND m."seq" > r."lastReadSeq"
);
