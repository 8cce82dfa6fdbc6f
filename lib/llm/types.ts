/** What a provider is asked: OpenAI's chat shape, the common denominator of every endpoint. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  /** A string, or (a message that shows images) one text part followed by its image parts. */
  content: string | ContentPart[];
  /** Speaker's name in group conversations (OpenAI's `name` field). */
  name?: string;
}

/**
 * OpenAI's content parts. An image's `url` is `attachment:ID` until the provider sends it
 * (then a data URL of the stored file): what the snapshot records.
 */
export type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail: "low" } };

/** One function call the model asked for (OpenAI's `tool_calls` entry); `arguments` is its JSON, unchecked. */
export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** A step's model message: the calls it asked for, and its text (`null` when it gave none). */
export interface ToolCallsMessage {
  role: "assistant";
  content: string | null;
  tool_calls: ToolCall[];
}

/** A call's result as given to the model. */
export interface ToolResultMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** A turn's tool steps: an assistant message with calls, then one tool message per call. */
export type StepMessage = ToolCallsMessage | ToolResultMessage;

/**
 * What a call of a turn's tool loop sends: the assembled messages, then this turn's steps.
 * (Kept apart from ChatMessage so code that reads assembled contexts never meets `content: null`.)
 */
export type LoopMessage = ChatMessage | StepMessage;

export function isStepMessage(message: LoopMessage): message is StepMessage {
  return message.role === "tool" || "tool_calls" in message;
}

/** A message's text: its content, or its text part when it shows images ("" for a step with no text). */
export function textOf(content: LoopMessage["content"]): string {
  if (content === null) return "";
  return typeof content === "string" ? content : content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
}

export interface CompletionRequest {
  model: string;
  /** The assembled context, then (in a turn's tool loop) its steps so far. */
  messages: LoopMessage[];
  temperature: number;
  maxOutputTokens: number;
  signal?: AbortSignal;
  /** What the context holds, in words (describeContext): the offline model tells it; real models never see it. */
  contextReport?: string;
  /** Functions the model may call besides answering (OpenAI tools); the offline model calls one when a message asks for it plainly. */
  tools?: ToolSpec[];
  /**
   * The caller waits out a rate limit itself (an agent turn gives its slot back and is queued
   * again): a 429 or a used-up minute fails at once with the wait. Otherwise the provider waits
   * (honouring Retry-After) and tries again.
   */
  deferRateLimit?: boolean;
}

export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

export type StreamEvent =
  | { type: "delta"; text: string }
  | { type: "usage"; inputTokens: number; outputTokens: number }
  /** A complete tool call, after the answer's text. `arguments` is the model's JSON, unchecked. */
  | { type: "tool_call"; name: string; arguments: string; /** The provider's id for the call, which its result must name (empty when it gave none). */ id: string };

/** Who answers for an agent: the offline model, the server's endpoint (OPENAI_*), or a configured provider. */
export type AgentProvider = "openai" | "offline" | "custom";

export interface LlmProvider {
  readonly name: "openai" | "offline";
  stream(request: CompletionRequest): AsyncIterable<StreamEvent>;
}

/** An LLM call that failed; `message` is safe to show in the conversation. */
export class LlmError extends Error {
  constructor(
    message: string,
    readonly kind: "auth" | "rate_limit" | "server" | "timeout" | "network" | "malformed" | "cancelled" | "bad_request",
    /** rate_limit: how long the provider asked to wait, when it said. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = "LlmError";
  }
}
