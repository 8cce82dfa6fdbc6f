-- People (issue 23): admins deactivate accounts, see when each person was last seen, and invite
-- by link with a role and an expiry.

-- Set while the account is deactivated: no sign-in, no session, no API token; the row and the
-- person's messages stay as they are.
ALTER TABLE "users" ADD COLUMN "deactivatedAt" TIMESTAMP(3);
-- When the person last had Chorus open (a live connection), to the minute.
ALTER TABLE "users" ADD COLUMN "lastSeenAt" TIMESTAMP(3);

-- An invite link: only a SHA-256 of its secret is kept. It is used once, by the sign-up that
-- claims it (usedByEmail first, so that sign-up may retry; usedById once the account exists).
CREATE TABLE "invites" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "role" "UserRole" NOT NULL DEFAULT 'member',
    "createdById" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "usedAt" TIMESTAMP(3),
    "usedByEmail" TEXT,
    "usedById" TEXT,
    "revokedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "invites_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "invites_tokenHash_key" ON "invites"("tokenHash");
CREATE INDEX "invites_createdAt_idx" ON "invites"("createdAt");
ALTER TABLE "invites" ADD CONSTRAINT "invites_createdById_fkey" FOREIGN KEY ("createdById") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "invites" ADD CONSTRAINT "invites_usedById_fkey" FOREIGN KEY ("usedById") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;
