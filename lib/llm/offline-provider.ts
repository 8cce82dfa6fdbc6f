import { unescapeFrame } from "@/lib/context/section-text";
import { lineStart } from "@/lib/text/line-start";
import { EPISODE_INSTRUCTION, KNOWLEDGE_INSTRUCTION, SUMMARY_INSTRUCTION } from "./instructions";
import { baseToolName, chooseOfflineTool, type OfflineToolCall } from "./offline-tool-choice";
import { countContent, countTokens } from "./token-counter";
import { LlmError, textOf, type CompletionRequest, type LlmProvider, type LoopMessage, type StreamEvent, type ToolResultMessage } from "./types";

/** The one call the offline model makes in a turn, so its id needs no counter. */
export const OFFLINE_CALL_ID = "offline_call_1";

/** How a call that never ran reaches the model (context.md, "Tool steps": denied, expired, invalid arguments). */
const NOT_RUN = "Not run: ";
/** How much of a message or a source the offline model quotes back. */
const QUOTE_CHARS = 160;

/**
 * The model used when no API key is configured: deterministic, streamed in chunks, and honest
 * about being offline. It answers the message and says what context it received, so the
 * product can be used and demonstrated without a key. Offered tools, it calls one when the
 * message asks for it plainly (see chooseOfflineTool), then answers with the result.
 */
export function createOfflineProvider({ chunkDelayMs = 12 }: { chunkDelayMs?: number } = {}): LlmProvider {
  return {
    name: "offline",
    async *stream(request: CompletionRequest): AsyncIterable<StreamEvent> {
      const call = offlineToolCall(request);
      // A call comes alone, with no text: the answer follows once its result is back.
      const reply = call ? "" : offlineReply(request);
      // The pace imitates a model writing to a person; a summary for the pruner is read by no one while it streams.
      const pace = isInternal(request) ? 0 : chunkDelayMs;
      for (const piece of reply.match(/\S+\s*/g) ?? []) {
        if (request.signal?.aborted) throw new LlmError("Stopped.", "cancelled");
        if (pace > 0) await new Promise((resolve) => setTimeout(resolve, pace));
        yield { type: "delta", text: piece };
      }
      if (call) {
        if (request.signal?.aborted) throw new LlmError("Stopped.", "cancelled");
        yield { type: "tool_call", id: OFFLINE_CALL_ID, ...call };
      }
      const inputTokens = request.messages.reduce((sum, message) => sum + countContent(message.content, (text) => countTokens(text, request.model)), 0);
      const outputTokens = countTokens(reply, request.model) + (call ? countTokens(call.name + call.arguments, request.model) : 0);
      yield { type: "usage", inputTokens, outputTokens };
    },
  };
}

/**
 * The tool the person's message asks for, when tools are offered and the message is the last of
 * the request: once results follow it, the offline model answers with them and calls no more.
 */
export function offlineToolCall(request: CompletionRequest): OfflineToolCall | null {
  const last = request.messages.at(-1);
  if (!request.tools?.length || last?.role !== "user") return null;
  return chooseOfflineTool(textOf(last.content), request.tools);
}

export function offlineReply(request: CompletionRequest): string {
  const { messages, contextReport } = request;
  const asked = textOf(messages.at(-1)?.content ?? "");
  if (asked.startsWith(SUMMARY_INSTRUCTION)) return extractiveSummary(asked.slice(SUMMARY_INSTRUCTION.length), request.model, request.maxOutputTokens);
  if (asked.startsWith(EPISODE_INSTRUCTION)) return extractiveEpisode(asked.slice(EPISODE_INSTRUCTION.length), request.model);
  const results = trailingResults(messages);
  if (results.length > 0) return resultsReply(messages, results);
  const system = messages.filter((message) => message.role === "system");
  const conversation = messages.filter((message) => message.role !== "system");
  const current = conversation.at(-1);
  const history = conversation.length - 1;
  const said = textOf(current?.content ?? "");
  const quoted = quotable(said).replace(/\s+/g, " ").trim();
  const steps = numberedSteps(said);
  const sections = [system.length > 0 && "system prompt", history > 0 && `history (${history} message${history === 1 ? "" : "s"})`, "current message"].filter(Boolean);
  return [
    `(offline model) You said: "${lineStart(quoted, QUOTE_CHARS)}"`,
    firstSourceCited(system),
    contextReport ? `I received: ${contextReport}` : `I received ${history} earlier message${history === 1 ? "" : "s"} and these sections: ${sections.join(", ")}.`,
    // Steps taught in the message come back as a list, so the offline procedure detector has something to find.
    steps.length >= 3 && `The steps, as I read them:\n${steps.map((step, index) => `${index + 1}. ${step}`).join("\n")}`,
    toolsHint(request.tools ?? []),
    "Set OPENAI_API_KEY to get real answers.",
  ].filter(Boolean).join("\n\n");
}

/**
 * The first excerpt of the knowledge section (`[1]`, the best match), quoted and cited as a real
 * model is asked to cite, so a reply's sources and their markers work without a key.
 */
function firstSourceCited(system: readonly LoopMessage[]): string | null {
  const knowledge = system.map((message) => textOf(message.content)).find((content) => content.startsWith(KNOWLEDGE_INSTRUCTION));
  const first = knowledge && /\n\[1\] <knowledge source="([^"]*)">\n([\s\S]*?)\n<\/knowledge>/.exec(knowledge);
  if (!first) return null;
  const [, source, text] = first;
  return `According to ${unescapeFrame(source!)} [1]: "${lineStart(unescapeFrame(text!), QUOTE_CHARS)}"`;
}

/** The results this turn's calls brought back: the `tool` messages the request ends with. */
function trailingResults(messages: readonly LoopMessage[]): ToolResultMessage[] {
  const results: ToolResultMessage[] = [];
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.role !== "tool") break;
    results.unshift(message);
  }
  return results;
}

/** Each result said back in a line, by the tool's own name; a call that never ran says why. */
function resultsReply(messages: readonly LoopMessage[], results: readonly ToolResultMessage[]): string {
  const toolOf = new Map(messages.flatMap((message) => ("tool_calls" in message ? message.tool_calls.map((call) => [call.id, baseToolName(call.function.name)] as const) : [])));
  const lines = results.map(({ tool_call_id, content }) => {
    const tool = toolOf.get(tool_call_id) ?? "the tool";
    return content.startsWith(NOT_RUN) ? `I could not use ${tool}: "${content.slice(NOT_RUN.length)}".` : `I used ${tool}: ${content}`;
  });
  return `(offline model) ${lines.join("\n\n")}`;
}

/** The servers' tools (named `server__tool`) it can call, and how to ask; Chorus's own (capture_procedure…) are not for people to ask for. */
function toolsHint(tools: readonly { name: string }[]): string | null {
  const callable = tools.filter((tool) => tool.name.includes("__")).map((tool) => baseToolName(tool.name));
  return callable.length > 0 ? `I can call ${callable.join(", ")} when you ask plainly ("search the notes for …", "add a note: …", "what time is it?") or say "use TOOL with {json}".` : null;
}

/** What the person asked: a panel's round message quotes the question from its section. */
function quotable(content: string): string {
  const question = /<CURRENT_MESSAGE>\n([\s\S]*?)\n<\/CURRENT_MESSAGE>/.exec(content)?.[1];
  return question === undefined ? content : unescapeFrame(question);
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
