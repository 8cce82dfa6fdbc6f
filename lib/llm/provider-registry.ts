import { createOfflineProvider } from "./offline-provider";
import { createOpenAIProvider } from "./openai-provider";
import { withRateLimits, type ProviderRateLimits } from "./provider-usage";
import type { AgentProvider, LlmProvider, LoopMessage } from "./types";
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
  customEndpoint,
}: {
  apiKey?: string;
  baseURL?: string;
  timeoutMs?: number;
  offlineChunkDelayMs?: number;
  rateLimits?: { prisma: Prisma; limits: ProviderRateLimits };
  inlineImages?: (messages: LoopMessage[]) => Promise<LoopMessage[]>;
  /** The endpoint of an agent of a configured provider (lib/providers/provider-endpoints), found when it is called. */
  customEndpoint?: (agentId: string) => Promise<LlmProvider>;
}) {
  const offline = createOfflineProvider({ chunkDelayMs: offlineChunkDelayMs });
  const endpoint = apiKey ? createOpenAIProvider({ apiKey, baseURL, timeoutMs, inlineImages }) : null;
  const openai = endpoint && rateLimits ? withRateLimits(endpoint, rateLimits) : endpoint;
  return (agent: { id: string; provider: AgentProvider }): LlmProvider => {
    if (agent.provider === "custom" && customEndpoint) return deferred(() => customEndpoint(agent.id));
    return agent.provider === "openai" && openai ? openai : offline;
  };
}

/** A provider found only when called: the registry stays synchronous for its callers. */
function deferred(find: () => Promise<LlmProvider>): LlmProvider {
  return {
    name: "openai",
    async *stream(request) {
      yield* (await find()).stream(request);
    },
  };
}

export type ProviderFor = ReturnType<typeof createProviderRegistry>;
