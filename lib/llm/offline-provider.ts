import { EPISODE_INSTRUCTION, SUMMARY_INSTRUCTION } from "./instructions";
import { countContent, countTokens } from "./token-counter";
import { LlmError, textOf, type CompletionRequest, type LlmProvider, type StreamEvent } from "./types";

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
      // The pace imitates a model writing to a person; a summary for the pruner is read by no one while it streams.
      const pace = isInternal(request) ? 0 : chunkDelayMs;
      for (const piece of reply.match(/\S+\s*/g) ?? []) {
        if (request.signal?.aborted) throw new LlmError("Stopped.", "cancelled");
        if (pace > 0) await new Promise((resolve) => setTimeout(resolve, pace));
        yield { type: "delta", text: piece };
      }
      const inputTokens = request.messages.reduce((sum, message) => sum + countContent(message.content, (text) => countTokens(text, request.model)), 0);
      yield { type: "usage", inputTokens, outputTokens: countTokens(reply, request.model) };
    },
  };
}

export function offlineReply(request: CompletionRequest): string {
  const { messages, contextReport } = request;
  const asked = textOf(messages.at(-1)?.content ?? "");
  if (asked.startsWith(SUMMARY_INSTRUCTION)) return extractiveSummary(asked.slice(SUMMARY_INSTRUCTION.length), request.model, request.maxOutputTokens);
  if (asked.startsWith(EPISODE_INSTRUCTION)) return extractiveEpisode(asked.slice(EPISODE_INSTRUCTION.length), request.model);
  const system = messages.filter((message) => message.role === "system");
  const conversation = messages.filter((message) => message.role !== "system");
  const current = conversation.at(-1);
  const history = conversation.length - 1;
  const said = textOf(current?.content ?? "");
  const quoted = quotable(said).replace(/\s+/g, " ").trim();
  const steps = numberedSteps(said);
  const sections = [system.length > 0 && "system prompt", history > 0 && `history (${history} message${history === 1 ? "" : "s"})`, "current message"].filter(Boolean);
  return [
    `(offline model) You said: "${quoted.length > 160 ? `${quoted.slice(0, 157)}…` : quoted}"`,
    contextReport ? `I received: ${contextReport}` : `I received ${history} earlier message${history === 1 ? "" : "s"} and these sections: ${sections.join(", ")}.`,
    // Steps taught in the message come back as a list, so the offline procedure detector has something to find.
    steps.length >= 3 && `The steps, as I read them:\n${steps.map((step, index) => `${index + 1}. ${step}`).join("\n")}`,
    "Set OPENAI_API_KEY to get real answers.",
  ].filter(Boolean).join("\n\n");
}

/** What the person asked: a panel's round message quotes the question from its section. */
function quotable(content: string): string {
  const question = /<CURRENT_MESSAGE>\n([\s\S]*?)\n<\/CURRENT_MESSAGE>/.exec(content)?.[1];
  return question === undefined ? content : question.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

function numberedSteps(text: string): string[] {
  return text.split("\n").flatMap((line) => /^\s*\d+[.)]\s+(.+)$/.exec(line)?.[1]?.trim() ?? []);
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

/** Chorus's own requests (summaries, episodes) stream to no one: no pace. */
function isInternal(request: CompletionRequest): boolean {
  const asked = textOf(request.messages.at(-1)?.content ?? "");
  return asked.startsWith(SUMMARY_INSTRUCTION) || asked.startsWith(EPISODE_INSTRUCTION);
}

/** A session's summary (the opening of the first lines) and its facts: lines with numbers, dates or decisions. */
function extractiveEpisode(body: string, model: string): string {
  const lines = body.split("\n").map((line) => line.trim()).filter(Boolean);
  const summary = extractiveSummary(lines.slice(0, 4).join("\n"), model, 80);
  const facts = lines.filter((line) => /\d|\b(decided|agreed|will|must|deadline|prefer)\b/i.test(line)).slice(0, 5);
  return [summary, ...facts.map((fact) => `- ${fact}`)].join("\n");
}
