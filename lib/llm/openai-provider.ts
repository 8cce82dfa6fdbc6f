import OpenAI, { AzureOpenAI } from "openai";
import { log } from "@/lib/log/logger";
import type { ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { LlmError, type CompletionRequest, type LlmProvider, type LoopMessage, type StreamEvent } from "./types";

export interface EndpointOptions {
  apiKey: string;
  baseURL?: string;
  /** Azure OpenAI's api-version: the endpoint is an Azure resource, its deployments named as models. */
  apiVersion?: string;
}

/** Where an admin fixes the endpoint, as its errors say: the server's variables, or a configured provider. */
export interface EndpointSource {
  key: string;
  address: string;
}

const SERVER_DEFAULT: EndpointSource = { key: "OPENAI_API_KEY", address: "OPENAI_BASE_URL" };

export interface OpenAIProviderOptions extends EndpointOptions {
  source?: EndpointSource;
  /** Per request; a stream that stalls longer than this fails as a timeout. */
  timeoutMs?: number;
  /** 5xx and network errors are retried (before anything streamed) with exponential backoff. */
  maxRetries?: number;
  /** Puts the files' bytes in place of image parts' `attachment:ID` (see lib/attachments/inline-images). */
  inlineImages?: (messages: LoopMessage[]) => Promise<LoopMessage[]>;
}

/** Before retry n (0-based): 0.5 s, 1 s, 2 s… with jitter, so nodes retrying together spread out. */
const retryDelayMs = (attempt: number) => 500 * 2 ** attempt * (0.5 + Math.random() / 2);

/** The longest Retry-After a call waits out itself; past it the call fails as rate-limited. */
const MAX_RATE_LIMIT_WAIT_MS = 60_000;

/**
 * Any OpenAI-compatible endpoint (OpenAI, Azure, Ollama, vLLM…) through the official SDK, whose
 * own retries are off so that a 429 is handled here: retried after the wait the provider asks
 * for, or, for a caller that waits it out itself (`deferRateLimit`: an agent turn gives its slot
 * back), failed at once with that wait.
 */
export function createOpenAIProvider({ timeoutMs = 60_000, maxRetries = 2, inlineImages = async (messages) => messages, source = SERVER_DEFAULT, ...endpoint }: OpenAIProviderOptions): LlmProvider {
  const client = openAIClient(endpoint, timeoutMs);
  return {
    name: "openai",
    async *stream(request: CompletionRequest): AsyncIterable<StreamEvent> {
      for (let attempt = 0; ; attempt++) {
        let streamed = false;
        try {
          for await (const event of streamOnce(client, request, inlineImages)) {
            streamed = true;
            yield event;
          }
          return;
        } catch (error) {
          const failure = toLlmError(error, request.signal, source);
          const waitMs = !streamed && attempt < maxRetries ? retryWait(failure, attempt, request) : null;
          if (waitMs !== null) {
            await new Promise((resolve) => setTimeout(resolve, waitMs));
            continue;
          }
          if (failure.kind !== "cancelled") log.warn("model provider error", { model: request.model, kind: failure.kind, ...providerCause(error) });
          throw failure;
        }
      }
    },
  };
}

/** How long to wait before trying a failed call again, or null when it is not tried again. */
function retryWait(failure: LlmError, attempt: number, request: CompletionRequest): number | null {
  if (failure.kind === "server" || failure.kind === "network") return retryDelayMs(attempt);
  if (failure.kind !== "rate_limit" || request.deferRateLimit) return null;
  const asked = failure.retryAfterMs ?? retryDelayMs(attempt);
  return asked <= MAX_RATE_LIMIT_WAIT_MS ? asked : null;
}

/** One request, streamed: text, tool calls (after the text) and usage. */
async function* streamOnce(client: OpenAI, request: CompletionRequest, inlineImages: NonNullable<OpenAIProviderOptions["inlineImages"]>): AsyncIterable<StreamEvent> {
  const stream = await client.chat.completions.create(
    {
      model: request.model,
      // Image parts are only ever on user messages (people attach files), which is what OpenAI accepts.
      messages: (await inlineImages(request.messages)) as ChatCompletionMessageParam[],
      temperature: request.temperature,
      max_tokens: request.maxOutputTokens,
      stream: true,
      stream_options: { include_usage: true },
      ...(request.tools?.length ? { tools: request.tools.map((tool) => ({ type: "function" as const, function: tool })) } : {}),
    },
    { signal: request.signal },
  );
  // Tool calls arrive in pieces (name, then the arguments' JSON in fragments), by index.
  const calls: { id: string; name: string; arguments: string }[] = [];
  for await (const chunk of stream) {
    const delta = chunk.choices[0]?.delta;
    if (delta?.content) yield { type: "delta", text: delta.content };
    for (const call of delta?.tool_calls ?? []) {
      const entry = (calls[call.index] ??= { id: "", name: "", arguments: "" });
      entry.id ||= call.id ?? "";
      entry.name += call.function?.name ?? "";
      entry.arguments += call.function?.arguments ?? "";
    }
    if (chunk.usage) yield { type: "usage", inputTokens: chunk.usage.prompt_tokens, outputTokens: chunk.usage.completion_tokens };
  }
  for (const call of calls) if (call?.name) yield { type: "tool_call", ...call };
  // The SDK ends the iteration quietly when aborted mid-stream.
  if (request.signal?.aborted) throw new LlmError("Stopped.", "cancelled");
}

/**
 * What the provider said, for the log: the status, its error type and code, its own message
 * (which may quote the request, so it never reaches the conversation) and the request id its
 * support asks for.
 */
function providerCause(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  // A connection error's own message is generic ("Connection error."); its cause says what failed.
  const cause = error.cause instanceof Error ? { cause: error.cause.message } : {};
  if (!(error instanceof OpenAI.APIError)) return { message: error.message, ...cause };
  return { status: error.status, type: error.type, code: error.code, message: error.message, requestId: error.requestID, ...cause };
}

/** The SDK's client for an endpoint, with the SDK's own retries off (see createOpenAIProvider). */
export function openAIClient({ apiKey, baseURL, apiVersion }: EndpointOptions, timeoutMs: number): OpenAI {
  if (apiVersion) return new AzureOpenAI({ apiKey, endpoint: baseURL?.replace(/\/openai\/?$/, ""), apiVersion, timeout: timeoutMs, maxRetries: 0 });
  return new OpenAI({ apiKey, baseURL, timeout: timeoutMs, maxRetries: 0 });
}

/** Short words for the conversation; the provider's own are logged (providerCause). */
export function toLlmError(error: unknown, signal?: AbortSignal, source: EndpointSource = SERVER_DEFAULT): LlmError {
  if (error instanceof LlmError) return error;
  if (signal?.aborted || error instanceof OpenAI.APIUserAbortError) return new LlmError("Stopped.", "cancelled");
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new LlmError("The model did not answer in time. Try again.", "timeout");
  if (error instanceof OpenAI.APIConnectionError) return new LlmError(`Could not reach the model provider. Check ${source.address} and the network.`, "network");
  if (error instanceof OpenAI.AuthenticationError || error instanceof OpenAI.PermissionDeniedError) {
    return new LlmError(`The model provider refused the API key. An admin needs to check ${source.key}.`, "auth");
  }
  if (error instanceof OpenAI.RateLimitError) return new LlmError("The model provider is rate-limiting requests. Try again in a minute.", "rate_limit", retryAfterMs(error.headers));
  if (error instanceof OpenAI.APIError && (error.status ?? 0) >= 500) return new LlmError("The model provider had an internal error. Try again.", "server");
  if (error instanceof OpenAI.APIError && error.status) {
    return new LlmError(`The model provider refused the request (${error.status}). An admin can find the details in the server log.`, "bad_request");
  }
  return new LlmError("The model's answer could not be read (malformed stream).", "malformed");
}

/** The wait a 429 asks for (`retry-after-ms`, or `retry-after` in seconds or as a date), if any. */
function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const after = headers?.get("retry-after");
  if (!after) return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}
