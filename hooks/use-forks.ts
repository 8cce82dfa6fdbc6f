"use client";

import { useQuery } from "@tanstack/react-query";
import type { ForkDetail, ForkSummary } from "@/lib/handoffs/read-forks";
import { getJson } from "./get-json";
import { queryKeys } from "./query-keys";

/** While the specialist works, the fork is read again every so often; a finished fork never changes. */
const RUNNING_REFRESH_MS = 1_500;

export function useFork(forkId: string, initial?: ForkDetail) {
  return useQuery({
    queryKey: queryKeys.fork(forkId),
    initialData: initial,
    queryFn: () => getJson<ForkDetail>(`/api/forks/${forkId}`, "Could not load the forked context."),
    refetchInterval: (query) => (query.state.data?.status === "finished" ? false : RUNNING_REFRESH_MS),
  });
}

/** A conversation's forks; `enabled` once someone asks to see them. */
export function useForks(conversationId: string, enabled: boolean) {
  return useQuery({
    queryKey: queryKeys.forks(conversationId),
    queryFn: () => getJson<ForkSummary[]>(`/api/conversations/${conversationId}/forks`, "Could not load the forks."),
    enabled,
  });
}
