import type { ReactNode } from "react";
import { PreferencesProvider } from "@/components/providers/preferences-provider";
import { AppShell } from "@/components/shell/app-shell";
import { Sidebar } from "@/components/shell/sidebar";
import { listConversations } from "@/lib/conversations/list-conversations";
import { getCurrentDirectory } from "@/lib/projects/current-directory";
import { getRuntime } from "@/lib/runtime/runtime";
import { getCurrentAvatar, getCurrentPreferences, requireCurrentUser } from "@/lib/session/current-user";
import { createChannelAction, openAgentChatAction, openDirectMessageAction, signOutAction } from "./actions";

export default async function AppLayout({ children }: { children: ReactNode }) {
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  const [conversations, directory, preferences, avatar] = await Promise.all([
    listConversations(db.prisma, { userId: user.id }),
    getCurrentDirectory(),
    getCurrentPreferences(),
    getCurrentAvatar(),
  ]);
  return (
    <PreferencesProvider preferences={preferences}>
      <AppShell
        sidebar={
          <Sidebar
            user={{ ...user, ...avatar }}
            initialConversations={conversations}
            initialDirectory={directory}
            actions={{ createChannel: createChannelAction, openDirectMessage: openDirectMessageAction, openAgentChat: openAgentChatAction, signOut: signOutAction }}
          />
        }
      >
        {children}
      </AppShell>
    </PreferencesProvider>
  );
}
