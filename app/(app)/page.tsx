import { redirect } from "next/navigation";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

export default async function HomePage() {
  const user = await requireCurrentUser();
  const runtime = await getRuntime();
  const conversations = await listConversations(runtime.db.prisma, { userId: user.id });
  // Land in the project's main channel when there is one, else the most recent conversation.
  const first = conversations.find((conversation) => conversation.key === "global" && conversation.title === "general") ?? conversations[0];
  if (first) redirect(`/c/${first.id}`);
  return (
    <div className="flex h-full items-center justify-center p-8 text-center text-muted">
      <p>You are not in any conversation yet. Ask an admin to add you to a project.</p>
    </div>
  );
}
