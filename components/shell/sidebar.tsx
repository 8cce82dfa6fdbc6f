import Link from "next/link";
import type { SessionUser } from "@/lib/auth/session-user";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { UserMenu } from "./user-menu";

export function Sidebar({
  user,
  conversations,
  signOut,
}: {
  user: SessionUser;
  conversations: ConversationSummary[];
  signOut: (input: unknown) => Promise<unknown>;
}) {
  const channels = conversations
    .filter((conversation) => conversation.key === "global")
    .sort((a, b) => a.title.localeCompare(b.title));
  return (
    <nav aria-label="Conversations" className="flex w-64 shrink-0 flex-col border-r border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900">
      <div className="px-4 py-3 text-lg font-bold tracking-tight">
        <span className="text-brand-600">●</span> Chorus
      </div>
      <div className="flex-1 overflow-y-auto px-2">
        <h2 className="px-2 pb-1 pt-3 text-xs font-semibold uppercase tracking-wide text-slate-500">Channels</h2>
        <ul>
          {channels.map((conversation) => (
            <li key={conversation.id}>
              <Link
                href={`/c/${conversation.id}`}
                className="block rounded-md px-2 py-1.5 text-slate-700 hover:bg-slate-200 dark:text-slate-300 dark:hover:bg-slate-800"
              >
                # {conversation.title}
              </Link>
            </li>
          ))}
        </ul>
      </div>
      <UserMenu user={user} signOut={signOut} />
    </nav>
  );
}
