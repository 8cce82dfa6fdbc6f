"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReplySourceView } from "@/lib/knowledge/read-reply-source";
import { getJson } from "./get-json";
import { queryKeys } from "./query-keys";

/** A reply's source in its document, read when its dialog opens; a refusal is the answer, not retried. */
export function useReplySource(messageId: string, chunkId: string) {
  return useQuery({
    queryKey: queryKeys.replySource(messageId, chunkId),
    queryFn: () => getJson<ReplySourceView>(`/api/messages/${messageId}/sources/${chunkId}`, "Could not load this source. Try again in a moment."),
    retry: false,
  });
}
