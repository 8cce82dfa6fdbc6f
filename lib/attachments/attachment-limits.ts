import type { Env } from "@/lib/config/env";
import { extractionLimits } from "@/lib/knowledge/extract-text";
import type { ReadLimits } from "@/lib/knowledge/read-pdf-text";

export interface AttachmentLimits {
  maxBytes: number;
  perMessage: number;
  /** All of one person's files, sent or waiting to be. */
  quotaBytes: number;
  /** Reading a file's text: its PDF limits are knowledge's. */
  read: ReadLimits;
}

const MB = 1024 * 1024;

export function attachmentLimits(env: Pick<Env, "ATTACHMENT_MAX_MB" | "ATTACHMENTS_PER_MESSAGE" | "ATTACHMENT_QUOTA_MB" | "KNOWLEDGE_MAX_CHARS" | "KNOWLEDGE_MAX_PAGES" | "KNOWLEDGE_READ_TIMEOUT_MS" | "KNOWLEDGE_READ_MEMORY_MB">): AttachmentLimits {
  return {
    maxBytes: Math.round(env.ATTACHMENT_MAX_MB * MB),
    perMessage: env.ATTACHMENTS_PER_MESSAGE,
    quotaBytes: Math.round(env.ATTACHMENT_QUOTA_MB * MB),
    read: extractionLimits(env),
  };
}
