"use client";

import Link from "next/link";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import type { InboxItem, InboxPage } from "@/lib/inbox/inbox-page";
import { useInboxPages } from "@/hooks/use-inbox";

const said: Record<InboxItem["kind"], string> = { mention: "mentioned you", answer: "answered your question" };

/** "Mentions and replies": the messages that mention the person or answer their questions, newest first, live. */
export function InboxView({ initial }: { initial: InboxPage }) {
  const query = useInboxPages(initial);
  const items = query.data.pages.flatMap((page) => page.items);
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Mentions and replies</h1>
        <p className="text-sm text-muted-strong">Messages that @mention you, and agents&apos; answers to your questions in channels, newest first.</p>
        {query.error && (
          <p role="alert" className="text-sm text-danger">
            {query.error.message}
          </p>
        )}
        {items.length === 0 ? (
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-muted-strong dark:border-slate-700">
            Nothing yet. When someone @mentions you, or an agent answers your question in a channel, it shows here.
          </p>
        ) : (
          <ol aria-label="Mentions and replies" className="space-y-2">
            {items.map((item) => (
              <li key={item.id}>
                <InboxEntry item={item} />
              </li>
            ))}
          </ol>
        )}
        {query.hasNextPage && (
          <button
            type="button"
            onClick={() => void query.fetchNextPage()}
            disabled={query.isFetchingNextPage}
            className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            {query.isFetchingNextPage ? "Loading…" : "Show older"}
          </button>
        )}
      </div>
    </div>
  );
}

function InboxEntry({ item }: { item: InboxItem }) {
  const when = useDateFormat(DATE_AND_TIME);
  const author = item.author?.name ?? "Unknown";
  return (
    <Link
      href={`/c/${item.conversationId}?at=${item.seq}`}
      data-unread={item.unread || undefined}
      className={`block rounded-lg border p-3 hover:bg-slate-50 dark:hover:bg-slate-900 ${item.unread ? "border-brand-600 dark:border-brand-500" : "border-slate-200 dark:border-slate-800"}`}
    >
      <span className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted">
        {item.unread && (
          <span className="inline-flex items-center gap-1 font-semibold text-link">
            <span aria-hidden="true" className="inline-block h-2 w-2 rounded-full bg-brand-600" />
            Unread
          </span>
        )}
        <span className="font-semibold text-muted-strong">{item.conversationTitle}</span>
        <span>
          {author} {said[item.kind]}
        </span>
        <time dateTime={item.createdAt}>{when.format(new Date(item.createdAt))}</time>
      </span>
      <span className={`mt-1 block break-words text-sm text-slate-900 dark:text-slate-100 ${item.unread ? "font-medium" : ""}`}>{item.preview || "(no text)"}</span>
    </Link>
  );
}
