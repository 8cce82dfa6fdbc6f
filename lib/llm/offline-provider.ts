import { SUMMARY_INSTRUCTION } from "@/lib/context/section-text";
import { countTokens } from "./token-counter";
import { LlmError, type CompletionRequest, type LlmProvider, type StreamEvent } from "./types";

/**
 * The model used when no API key is configured: deterministic, streamed in chunks, and honest
 * about being offline. It answers the message and says what context it received, so the
 * product can be used and demonstrated without a key.
 */
export function createOfflineProvider({ chunkDelayMs = 12 }: { chunkDelayMs?: number } = {}): LlmProvider {
  return {
    name: "offline",
    async *stream(request: CompletionRequest): AsyncIterable<StreamEvent> {
      const reply = offlineReply(request);
      for (const piece of reply.match(/\S+\s*/g) ?? []) {
        if (request.signal?.aborted) throw new LlmError("Stopped.", "cancelled");
        if (chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, chunkDelayMs));
        yield { type: "delta", text: piece };
      }
      const inputTokens = request.messages.reduce((sum, message) => sum + countTokens(message.content, request.model), 0);
      yield { type: "usage", inputTokens, outputTokens: countTokens(reply, request.model) };
    },
  };
}

export function offlineReply(request: CompletionRequest): string {
  const { messages, contextReport } = request;
  const asked = messages.at(-1)?.content ?? "";
  if (asked.startsWith(SUMMARY_INSTRUCTION)) return extractiveSummary(asked.slice(SUMMARY_INSTRUCTION.length), request.model, request.maxOutputTokens);
  const system = messages.filter((message) => message.role === "system");
  const conversation = messages.filter((message) => message.role !== "system");
  const current = conversation.at(-1);
  const history = conversation.length - 1;
  const quoted = (current?.content ?? "").replace(/\s+/g, " ").trim();
  const sections = [system.length > 0 && "system prompt", history > 0 && `history (${history} message${history === 1 ? "" : "s"})`, "current message"].filter(Boolean);
  return [
    `(offline model) You said: "${quoted.length > 160 ? `${quoted.slice(0, 157)}…` : quoted}"`,
    contextReport ? `I received: ${contextReport}` : `I received ${history} earlier message${history === 1 ? "" : "s"} and these sections: ${sections.join(", ")}.`,
    "Set OPENAI_API_KEY to get real answers.",
  ].join("\n\n");
}

/**
 * The offline model's summary: the first sentence of each labelled line (the previous summary
 * included), cut to the summary's token limit. Crude, but it condenses and it is honest.
 */
function extractiveSummary(body: string, model: string, maxTokens: number): string {
  const lines = body.split("\n").map((line) => line.trim()).filter(Boolean);
  let summary = "";
  for (const line of lines) {
    const sentence = (/^.*?[.!?](\s|$)/.exec(line)?.[0] ?? line).trim();
    const next = summary ? `${summary} ${sentence}` : sentence;
    if (countTokens(next, model) > maxTokens) break;
    summary = next;
  }
  return summary || lines[0]?.slice(0, 200) || "(nothing to summarize)";
}
