import { redirect } from "next/navigation";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

export default async function HomePage() {
  const user = await requireCurrentUser();
  const runtime = await getRuntime();
  const [first] = await listConversations(runtime.db.prisma, { userId: user.id });
  if (first) redirect(`/c/${first.id}`);
  return (
    <div className="flex h-full items-center justify-center p-8 text-center text-slate-600 dark:text-slate-400">
      <p>You are not in any conversation yet. Ask an admin to add you to a project.</p>
    </div>
  );
}
