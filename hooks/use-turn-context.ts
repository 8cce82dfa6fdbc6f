"use client";

import { useQuery } from "@tanstack/react-query";
import type { ContextSnapshot } from "@/lib/context/types";
import { queryKeys } from "./query-keys";

async function fetchTurnContext(turnId: string): Promise<ContextSnapshot> {
  const response = await fetch(`/api/turns/${turnId}/context`);
  const body = await response.json();
  if (!response.ok) throw new Error(body?.error?.message ?? "Could not load what the agent saw.");
  return body.data;
}

/** What an agent saw for one turn; a snapshot never changes, so it is fetched once. */
export function useTurnContext(turnId: string | null) {
  return useQuery({ queryKey: queryKeys.turnContext(turnId ?? ""), queryFn: () => fetchTurnContext(turnId!), enabled: turnId !== null, staleTime: Infinity });
}
