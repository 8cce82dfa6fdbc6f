import type { Env } from "@/lib/config/env";
import { extractionLimits } from "@/lib/knowledge/extract-text";
import type { ReadLimits } from "@/lib/knowledge/read-in-worker";

export interface AttachmentLimits {
  maxBytes: number;
  perMessage: number;
  /** All of one person's files, sent or waiting to be. */
  quotaBytes: number;
  /** Reading a file's text: its PDF limits are knowledge's. */
  read: ReadLimits;
  /** The characters of a file's text that are kept (for agents and previews); the rest stays in the file. */
  keptChars: number;
}

const MB = 1024 * 1024;
/**
 * More than anything reads (an agent at its largest setting reads 100,000 tokens; a preview shows
 * 200,000 characters). Writing 2,000,000 characters into the embedded database held the event
 * loop for 30–80 ms per upload; 400,000 take 5 ms.
 */
const KEPT_TEXT_CHARS = 400_000;

export function attachmentLimits(env: Pick<Env, "ATTACHMENT_MAX_MB" | "ATTACHMENTS_PER_MESSAGE" | "ATTACHMENT_QUOTA_MB" | "KNOWLEDGE_MAX_CHARS" | "KNOWLEDGE_MAX_PAGES" | "KNOWLEDGE_READ_TIMEOUT_MS" | "KNOWLEDGE_READ_MEMORY_MB">): AttachmentLimits {
  return {
    maxBytes: Math.round(env.ATTACHMENT_MAX_MB * MB),
    perMessage: env.ATTACHMENTS_PER_MESSAGE,
    quotaBytes: Math.round(env.ATTACHMENT_QUOTA_MB * MB),
    read: extractionLimits(env),
    keptChars: Math.min(KEPT_TEXT_CHARS, env.KNOWLEDGE_MAX_CHARS),
  };
}
