"use client";

import { useQuery } from "@tanstack/react-query";
import type { AttachmentTextDto } from "@/lib/attachments/read-attachment-text";
import { getJson } from "./get-json";
import { queryKeys } from "./query-keys";

/**
 * The text a preview shows. A sent file never changes, so it is read once; a refusal (no text,
 * no access) is the answer, not a hiccup, so it is shown at once rather than retried.
 */
export function useAttachmentText(attachmentId: string) {
  return useQuery({
    queryKey: queryKeys.attachmentText(attachmentId),
    queryFn: () => getJson<AttachmentTextDto>(`/api/attachments/${attachmentId}/text`, "Could not load the preview. Download the file instead."),
    staleTime: Infinity,
    retry: false,
  });
}
