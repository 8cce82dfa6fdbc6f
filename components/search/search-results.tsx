"use client";

import Link from "next/link";
import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import type { SearchPage, SearchResult } from "@/lib/search/search-messages";
import type { SnippetPart } from "@/lib/search/snippet";

export interface SearchResultsState {
  pages: SearchPage[] | undefined;
  /** Set while newer results load and the previous ones are still shown. */
  stale: boolean;
  loading: boolean;
  /** Why there are no results to show: the search is refused, or failed. */
  problem: string | null;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
}

/** What the live region says: the count once results are in, else what is going on. */
function statusText({ pages, loading, problem }: SearchResultsState): string {
  if (problem) return problem;
  const first = pages?.[0];
  if (!first) return loading ? "Searching…" : "";
  if (first.total === 0) return "No messages match";
  if (first.more) return `More than ${first.total} results: the newest ${first.total} are ranked. Add a word or a filter to narrow them.`;
  return first.total === 1 ? "1 result" : `${first.total} results`;
}

/** The results of a search, best first, each linking to its message in its conversation. */
export function SearchResults(state: SearchResultsState) {
  const results = state.problem ? [] : (state.pages ?? []).flatMap((page) => page.results);
  return (
    <div className="space-y-3">
      <p role="status" className={`text-sm ${state.problem ? "text-danger" : "text-muted-strong"}`}>
        {statusText(state)}
      </p>
      {results.length > 0 && (
        <ol aria-label="Search results" aria-busy={state.stale} className={`space-y-2 ${state.stale ? "opacity-60" : ""}`}>
          {results.map((result) => (
            <li key={result.id}>
              <ResultLink result={result} />
            </li>
          ))}
        </ol>
      )}
      {state.hasMore && !state.problem && (
        <button
          type="button"
          onClick={state.loadMore}
          disabled={state.loadingMore}
          className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800"
        >
          {state.loadingMore ? "Loading…" : "Show more results"}
        </button>
      )}
    </div>
  );
}

function ResultLink({ result }: { result: SearchResult }) {
  const when = useDateFormat(DATE_AND_TIME);
  return (
    <Link
      href={`/c/${result.conversationId}?at=${result.seq}`}
      className="block rounded-lg border border-slate-200 p-3 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
    >
      <span className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted">
        <span className="font-semibold text-muted-strong">{result.conversationTitle}</span>
        <span>{result.author?.name ?? "Unknown"}</span>
        <time dateTime={result.createdAt}>{when.format(new Date(result.createdAt))}</time>
      </span>
      <span className="mt-1 block break-words text-sm text-slate-900 dark:text-slate-100">
        <Snippet parts={result.snippet} />
      </span>
    </Link>
  );
}

/** The passages as text, the matches in <mark>: nothing in a message is ever read as HTML. */
function Snippet({ parts }: { parts: SnippetPart[] }) {
  return parts.map((part, index) =>
    part.match ? (
      <mark key={index} className="rounded-sm bg-amber-200 px-0.5 text-slate-950 dark:bg-amber-300">
        {part.text}
      </mark>
    ) : (
      <span key={index}>{part.text}</span>
    ),
  );
}
