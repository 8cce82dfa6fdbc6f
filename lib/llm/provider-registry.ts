import { createOfflineProvider } from "./offline-provider";
import { createOpenAIProvider } from "./openai-provider";
import type { LlmProvider } from "./types";

/**
 * Which provider answers for an agent: its OpenAI-compatible endpoint when a key is configured,
 * otherwise the offline model (labelled as such on every reply it produces).
 */
export function createProviderRegistry({ apiKey, baseURL, timeoutMs, offlineChunkDelayMs }: { apiKey?: string; baseURL?: string; timeoutMs?: number; offlineChunkDelayMs?: number }) {
  const offline = createOfflineProvider({ chunkDelayMs: offlineChunkDelayMs });
  const openai = apiKey ? createOpenAIProvider({ apiKey, baseURL, timeoutMs }) : null;
  return (agent: { provider: "openai" | "offline" }): LlmProvider => (agent.provider === "openai" && openai ? openai : offline);
}

export type ProviderFor = ReturnType<typeof createProviderRegistry>;
