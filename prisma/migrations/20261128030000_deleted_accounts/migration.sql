-- A deleted account (issue 23: "delete my account"): the row stays, so the messages it wrote
-- stay in their conversations, under "Deleted user"; what identified the person goes.
ALTER TABLE "users" ADD COLUMN "deletedAt" TIMESTAMP(3);
