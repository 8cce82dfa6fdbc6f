"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useInboxUnread } from "@/hooks/use-inbox";

/** The sidebar's way to "Mentions and replies", with the count of those not read yet. */
export function InboxLink({ me }: { me: string }) {
  const pathname = usePathname();
  const unread = useInboxUnread(me);
  const here = pathname === "/inbox";
  return (
    <Link
      href="/inbox"
      aria-current={here ? "page" : undefined}
      className={`mx-2 mb-2 flex items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-slate-200 dark:hover:bg-slate-800 ${here ? "bg-slate-200 dark:bg-slate-800" : ""} ${unread > 0 ? "font-semibold text-slate-900 dark:text-white" : "text-muted"}`}
    >
      <span aria-hidden="true" className="w-4 text-center">
        @
      </span>
      {/* One name starting with what a person sees (WCAG 2.5.3), the count spelled out. */}
      <span aria-hidden="true" className="flex-1">
        Mentions and replies
      </span>
      {unread > 0 && (
        <span aria-hidden="true" data-testid="inbox-unread" className="rounded-full bg-red-600 px-1.5 text-[11px] font-bold text-white">
          {unread > 99 ? "99+" : unread}
        </span>
      )}
      <span className="sr-only">{unread > 0 ? `Mentions and replies, ${unread} unread` : "Mentions and replies"}</span>
    </Link>
  );
}
