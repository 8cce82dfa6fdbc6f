import { createOfflineProvider } from "./offline-provider";
import { createOpenAIProvider } from "./openai-provider";
import { withRateLimits, type ProviderRateLimits } from "./provider-usage";
import type { LlmProvider, LoopMessage } from "./types";
import type { Prisma } from "@/lib/db/open-database";

/**
 * Which provider answers for an agent: its OpenAI-compatible endpoint when a key is configured,
 * otherwise the offline model (labelled as such on every reply it produces). The endpoint's
 * per-minute limits, when given, count every call to it.
 */
export function createProviderRegistry({
  apiKey,
  baseURL,
  timeoutMs,
  offlineChunkDelayMs,
  rateLimits,
  inlineImages,
}: {
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  offlineChunkDelayMs?: number;
  rateLimits?: { prisma: Prisma; limits: ProviderRateLimits };
  inlineImages?: (messages: LoopMessage[]) => Promise<LoopMessage[]>;
}) {
  const offline = createOfflineProvider({ chunkDelayMs: offlineChunkDelayMs });
  const endpoint = apiKey ? createOpenAIProvider({ apiKey, baseURL, timeoutMs, inlineImages }) : null;
  const openai = endpoint && rateLimits ? withRateLimits(endpoint, rateLimits) : endpoint;
  return (agent: { provider: "openai" | "offline" }): LlmProvider => (agent.provider === "openai" && openai ? openai : offline);
}

export type ProviderFor = ReturnType<typeof createProviderRegistry>;
