"use client";

import { useEffect, useRef, useState } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { MAX_SEARCH_CHARS } from "@/lib/search/search-input";
import { useConversations } from "@/hooks/use-conversations";
import { useDirectory } from "@/hooks/use-directory";
import { urlQueryFor, type SearchForm } from "./search-form";
import { SearchFilters } from "./search-filters";
import { SEARCH_BOX_ID } from "./search-link";
import { SearchResults } from "./search-results";
import { useSearchResults } from "./use-search-results";

/** Search every conversation the person takes part in: results as they type, filters, links to each message. */
export function SearchView({
  userId,
  initialForm,
  initialConversations,
  initialDirectory,
}: {
  userId: string;
  initialForm: SearchForm;
  initialConversations: ConversationSummary[];
  initialDirectory: ProjectDirectory | null;
}) {
  const conversations = useConversations(userId, initialConversations);
  const { directory } = useDirectory(initialDirectory);
  const [form, setForm] = useState(initialForm);
  const { settled, asked, problem, query } = useSearchResults(form);
  const box = useRef<HTMLInputElement>(null);

  // The URL follows the search, so going back from a result shows it again.
  useEffect(() => window.history.replaceState(window.history.state, "", `/search${urlQueryFor(settled)}`), [settled]);
  // The box, not the heading the shell focuses after navigating: after its effect has run.
  useEffect(() => {
    const frame = requestAnimationFrame(() => box.current?.focus());
    return () => cancelAnimationFrame(frame);
  }, []);

  const change = (update: Partial<SearchForm>) => setForm((current) => ({ ...current, ...update }));
  return (
    <div className="h-full overflow-y-auto">
      <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
        <h1 className="text-2xl font-bold">Search</h1>
        <form role="search" onSubmit={(event) => event.preventDefault()} className="space-y-3">
          <label className="block text-sm font-medium">
            Search messages
            <input
              ref={box}
              id={SEARCH_BOX_ID}
              type="search"
              value={form.q}
              maxLength={MAX_SEARCH_CHARS}
              onChange={(event) => change({ q: event.target.value })}
              aria-describedby="search-hint"
              autoComplete="off"
              className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100"
            />
          </label>
          <p id="search-hint" className="text-xs text-muted">
            Every conversation you take part in. &quot;Quotes&quot; find a phrase, -word leaves a word out, or finds either.
          </p>
          <SearchFilters form={form} onChange={change} conversations={conversations} directory={directory} />
        </form>
        {/* Always there, so that screen readers hear its count change. */}
        <SearchResults
          pages={asked ? query.data?.pages : undefined}
          stale={query.isPlaceholderData}
          loading={asked && query.isFetching}
          problem={problem ?? (asked && query.error ? query.error.message : null)}
          hasMore={asked && query.hasNextPage}
          loadingMore={query.isFetchingNextPage}
          loadMore={() => void query.fetchNextPage()}
        />
      </div>
    </div>
  );
}
