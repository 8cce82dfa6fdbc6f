import Link from "next/link";
import type { ReactNode } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";

/**
 * One conversation in the sidebar: bold with a count while unread (unless muted: then quiet,
 * said in its name), a red @ badge for mentions, and what its agents are doing ("Toby is
 * thinking…") under the title.
 */
export function SidebarLink({ conversation, active, icon, activity }: { conversation: ConversationSummary; active: boolean; icon: ReactNode; activity?: string | null }) {
  const unread = conversation.unread > 0 && !conversation.muted;
  const label = [conversation.title, unread && `${conversation.unread} unread`, conversation.mentions > 0 && `${conversation.mentions} mentions`, conversation.muted && "muted"].filter(Boolean).join(", ");
  return (
    <Link
      href={`/c/${conversation.id}`}
      aria-current={active ? "page" : undefined}
      className={`flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-200 dark:hover:bg-slate-800 ${
        active ? "bg-slate-200 dark:bg-slate-800" : ""
      } ${unread ? "font-semibold text-slate-900 dark:text-white" : "text-muted"}`}
    >
      {icon}
      {/* Named by one piece of text starting with the title a person sees (WCAG 2.5.3), the counts spelled out. */}
      <span aria-hidden="true" className="min-w-0 flex-1">
        <span className="block truncate">{conversation.title}</span>
        {activity && (
          <span data-testid="sidebar-activity" className="block truncate text-[11px] font-normal italic text-link">
            {activity}
          </span>
        )}
      </span>
      {conversation.mentions > 0 && (
        <span aria-hidden="true" className="rounded-full bg-red-600 px-1.5 text-[11px] font-bold text-white">
          @{conversation.mentions}
        </span>
      )}
      {unread && (
        <span aria-hidden="true" data-testid="unread-badge" className="rounded-full bg-brand-600 px-1.5 text-[11px] font-bold text-white">
          {conversation.unread > 99 ? "99+" : conversation.unread}
        </span>
      )}
      <span className="sr-only">{label}</span>
    </Link>
  );
}
