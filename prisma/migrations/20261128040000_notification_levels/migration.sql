-- Each person's notifications per conversation (issue 23): which messages tell them (NULL: the
-- default for the conversation's type, lib/conversations/notification-level.ts), and muted
-- (no count in the tab, no notification, dimmed in the sidebar).
ALTER TABLE "participants"
  ADD COLUMN "notify" TEXT CONSTRAINT "participants_notify_check" CHECK ("notify" IN ('all', 'mentions', 'nothing')),
  ADD COLUMN "muted" BOOLEAN NOT NULL DEFAULT false;
