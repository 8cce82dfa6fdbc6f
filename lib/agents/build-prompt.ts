import type { ChatMessage } from "@/lib/llm/types";

export interface HistoryMessage {
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  authorHandle: string | null;
  authorAgentId: string | null;
}

/** OpenAI's `name` allows letters, digits, _ and -. */
const speakerName = (handle: string) => handle.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);

/**
 * The agent's prompt: its system prompt, then the last `historyWindow` messages (the current
 * one last). Its own earlier replies are `assistant`; people and other agents speak as `user`
 * with their handle as name, so one agent never mistakes another's words for its own.
 * System notices of the app are left out.
 */
export function buildPrompt({ systemPrompt, agentId, history, historyWindow }: { systemPrompt: string; agentId: string; history: HistoryMessage[]; historyWindow: number }): ChatMessage[] {
  const visible = history.filter((message) => message.role !== "system").slice(-historyWindow);
  return [
    { role: "system", content: systemPrompt },
    ...visible.map((message): ChatMessage => {
      if (message.authorAgentId === agentId) return { role: "assistant", content: message.content };
      return { role: "user", content: message.content, ...(message.authorHandle ? { name: speakerName(message.authorHandle) } : {}) };
    }),
  ];
}
