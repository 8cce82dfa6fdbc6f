"use client";

import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { searchInputSchema } from "@/lib/search/search-input";
import type { SearchPage } from "@/lib/search/search-messages";
import { apiParamsFor, type SearchForm } from "./search-form";

/** How long typing must pause before a search is sent. */
const DEBOUNCE_MS = 250;

async function fetchSearchPage(params: Record<string, string>, offset: number, signal: AbortSignal): Promise<SearchPage> {
  const response = await fetch(`/api/search?${new URLSearchParams({ ...params, offset: String(offset) })}`, { signal });
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not search. Try again.");
  return body.data;
}

/** `value` once it has stopped changing for `ms`. */
function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  const key = JSON.stringify(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(JSON.parse(key) as T), ms);
    return () => clearTimeout(timer);
  }, [key, ms]);
  return settled;
}

/**
 * Results as the person types: the form is searched once typing pauses, page after page on
 * demand; the previous results stay while the next ones load. A search the API would refuse
 * (too long, a control character) is not sent: `problem` says why.
 */
export function useSearchResults(form: SearchForm) {
  const settled = useSettled(form, DEBOUNCE_MS);
  const params = apiParamsFor(settled);
  const checked = searchInputSchema.safeParse(params);
  const asked = settled.q.trim() !== "";
  const query = useInfiniteQuery({
    queryKey: ["search", params],
    queryFn: ({ pageParam, signal }) => fetchSearchPage(params, pageParam, signal),
    initialPageParam: 0,
    getNextPageParam: (last) => last.nextOffset ?? undefined,
    enabled: asked && checked.success,
    placeholderData: keepPreviousData,
    // A refusal (400) says what to change: asking again would get the same answer.
    retry: false,
    staleTime: 30_000,
  });
  return {
    /** The form as last searched (the URL follows it). */
    settled,
    asked,
    problem: asked && !checked.success ? (checked.error.issues[0]?.message ?? "This search cannot be run.") : null,
    query,
  };
}
