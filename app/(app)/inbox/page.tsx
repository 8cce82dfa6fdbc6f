import type { Metadata } from "next";
import { InboxView } from "@/components/inbox/inbox-view";
import { listInbox } from "@/lib/inbox/list-inbox";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

export const metadata: Metadata = { title: "Mentions and replies · Chorus" };

/** The person's mentions and agents' answers to their questions; the first page is rendered here. */
export default async function InboxPage() {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  return <InboxView initial={await listInbox(db.prisma, { userId: user.id })} />;
}
