import type { ReactNode } from "react";
import { Sidebar } from "@/components/shell/sidebar";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { signOutAction } from "./actions";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireCurrentUser();
  const runtime = await getRuntime();
  const conversations = await listConversations(runtime.db.prisma, { userId: user.id });
  return (
    <div className="flex h-full">
      <Sidebar user={user} conversations={conversations} signOut={signOutAction} />
      <main className="min-w-0 flex-1">{children}</main>
    </div>
  );
}
