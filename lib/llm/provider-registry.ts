import { createOfflineProvider } from "./offline-provider";
import { createOpenAIProvider } from "./openai-provider";
import type { LlmProvider } from "./types";

/**
 * Which provider answers for an agent: its OpenAI-compatible endpoint when a key is configured,
 * otherwise the offline model (labelled as such on every reply it produces).
 */
export function createProviderRegistry({ apiKey, baseURL, offlineChunkDelayMs }: { apiKey?: string; baseURL?: string; offlineChunkDelayMs?: number }) {
  const offline = createOfflineProvider({ chunkDelayMs: offlineChunkDelayMs });
  const openai = apiKey ? createOpenAIProvider({ apiKey, baseURL }) : null;
  return (agent: { provider: "openai" | "offline" }): LlmProvider => (agent.provider === "openai" && openai ? openai : offline);
}

export type ProviderFor = ReturnType<typeof createProviderRegistry>;
