import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { Sidebar } from "@/components/shell/sidebar";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { createChannelAction, openAgentChatAction, openDirectMessageAction, signOutAction } from "./actions";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  const [conversations, directory] = await Promise.all([
    listConversations(db.prisma, { userId: user.id }),
    getProjectDirectory(db.prisma, { userId: user.id }),
  ]);
  return (
    <AppShell
      sidebar={
        <Sidebar
          user={user}
          initialConversations={conversations}
          initialDirectory={directory}
          actions={{ createChannel: createChannelAction, openDirectMessage: openDirectMessageAction, openAgentChat: openAgentChatAction, signOut: signOutAction }}
        />
      }
    >
      {children}
    </AppShell>
  );
}
