import { createHash } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One scripted answer; without a script the server echoes the last message. */
export interface ScriptedReply {
  content?: string;
  /** How the content is split into stream chunks (default: by word). */
  chunks?: string[];
  toolCalls?: { name: string; arguments: string }[];
  /** 400, 401, 429 and 500 answer with that status; timeout never answers; malformed sends a broken stream. */
  error?: 400 | 401 | 429 | 500 | "timeout" | "malformed";
  /** The provider's own words in an error answer (default `fake <status>`). */
  errorMessage?: string;
  /** Sent as the `x-request-id` header, which the SDK keeps as the error's requestID. */
  requestId?: string;
  /** Sent as the `retry-after` header (seconds) with an error: how long the provider asks to wait. */
  retryAfterSeconds?: number;
  /** Before the first byte (unless firstTokenMs is given), and between chunks. */
  delayMs?: number;
  /** Before the first byte instead of delayMs: the model's time to first token (delayMs then paces the chunks). */
  firstTokenMs?: number;
}

export interface ChatRequest {
  model: string;
  max_tokens?: number;
  max_completion_tokens?: number;
  /** `content` is the text: a message with parts has its text part here and its images in `images`. */
  messages: { role: string; content: string; name?: string; images?: SentImage[]; tool_calls?: { id: string; function: { name: string; arguments: string } }[]; tool_call_id?: string }[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean };
  tools?: { type: "function"; function: { name: string; parameters: { properties: Record<string, { enum?: string[] }> } } }[];
}

/** An image part as the server decoded it: checked like OpenAI checks it (a data URL of an image, detail low). */
export interface SentImage {
  mediaType: string;
  bytes: number;
  detail: string;
}

type SentContent = string | ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string; detail?: string } })[];

/** Image types OpenAI reads, by their first bytes. */
const imageMagic: Record<string, (bytes: Buffer) => boolean> = {
  "image/png": (bytes) => bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])),
  "image/jpeg": (bytes) => bytes[0] === 0xff && bytes[1] === 0xd8,
  "image/gif": (bytes) => bytes.subarray(0, 3).toString() === "GIF",
  "image/webp": (bytes) => bytes.subarray(8, 12).toString() === "WEBP",
};

/**
 * A message's content parts checked as OpenAI would: a user message's parts, text first, each
 * image a base64 data URL whose bytes are the image type it names, `detail: "low"`. Returns the
 * text and the images, or why the request is refused.
 */
function readParts(role: string, content: SentContent | null): { text: string; images?: SentImage[] } | { error: string } {
  // An assistant message with tool calls and no text.
  if (content === null) return role === "assistant" ? { text: "" } : { error: `${role} messages need content` };
  if (typeof content === "string") return { text: content };
  if (role !== "user") return { error: `content parts with images are only for user messages, not ${role}` };
  const [first, ...rest] = content;
  if (first?.type !== "text") return { error: "the first part must be the message's text" };
  const images: SentImage[] = [];
  for (const part of rest) {
    if (part.type !== "image_url") return { error: "only one text part, then image parts" };
    const data = /^data:(image\/[a-z]+);base64,([A-Za-z0-9+/=]+)$/.exec(part.image_url.url);
    if (!data) return { error: `Invalid image URL: expected a base64 data URL, got ${part.image_url.url.slice(0, 40)}` };
    const bytes = Buffer.from(data[2]!, "base64");
    if (!imageMagic[data[1]!]?.(bytes)) return { error: `The image data is not a valid ${data[1]}` };
    images.push({ mediaType: data[1]!, bytes: bytes.length, detail: part.image_url.detail ?? "auto" });
  }
  return { text: first.text, images };
}

/**
 * An OpenAI-compatible server on a random local port, for tests of the real SDK:
 * /v1/chat/completions (streaming or not, tool calls, injected errors and latency) and /v1/embeddings.
 */
export class FakeOpenAI {
  readonly requests: ChatRequest[] = [];
  /** Embedding requests answered so far. */
  embeddingRequests = 0;
  /** Before each embeddings answer: a slow endpoint, for ingestion that takes a while. */
  embeddingDelayMs = 0;
  /** Chat completions being answered now, and the most there were at once. */
  inFlight = 0;
  maxInFlight = 0;
  private script: ScriptedReply[] = [];
  private failure: ScriptedReply | null = null;
  private responder: ((request: ChatRequest) => ScriptedReply | undefined) | null = null;
  private constructor(private readonly server: Server, readonly baseURL: string) {}

  static async start(): Promise<FakeOpenAI> {
    const holder: { fake?: FakeOpenAI } = {};
    const server = createServer((req, res) => void holder.fake!.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    holder.fake = new FakeOpenAI(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    return holder.fake;
  }

  /** Queues replies, used in order by the next requests. */
  reply(...replies: ScriptedReply[]): this {
    this.script.push(...replies);
    return this;
  }

  /** Answers by looking at each request (e.g. by system prompt); undefined falls back to the script. */
  respondWith(responder: (request: ChatRequest) => ScriptedReply | undefined): this {
    this.responder = responder;
    return this;
  }

  /** Every request fails this way (retries included) until reset(). */
  failAll(error: NonNullable<ScriptedReply["error"]>, partial = "half an answer"): this {
    this.failure = { error, content: partial };
    return this;
  }

  reset(): void {
    this.script = [];
    this.failure = null;
    this.responder = null;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** What GET /v1/models lists. */
  models = ["fake-large", "fake-small"];
  /** When set, /v1/models and chat completions answer 401 to any other key, as a provider does. */
  requiredKey: string | null = null;
  /** The Bearer key each chat request came with. */
  readonly keysUsed: string[] = [];

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readBody(req);
    const key = req.headers.authorization?.replace(/^Bearer /, "") ?? "";
    if (this.requiredKey !== null && key !== this.requiredKey && req.url !== "/v1/embeddings") {
      return json(res, 401, { error: { message: "Incorrect API key provided.", type: "invalid_request_error", code: "invalid_api_key" } });
    }
    if (req.url === "/v1/models") return json(res, 200, { object: "list", data: this.models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake" })) });
    if (req.url === "/v1/embeddings") {
      this.embeddingRequests += 1;
      await sleep(this.embeddingDelayMs);
      return embeddings(res, body as EmbeddingRequest);
    }
    if (req.url !== "/v1/chat/completions") return json(res, 404, { error: { message: "not found" } });
    const request = body as ChatRequest;
    for (const message of request.messages) {
      const read = readParts(message.role, message.content as SentContent | null);
      if ("error" in read) return json(res, 400, { error: { message: read.error, type: "invalid_request_error" } });
      Object.assign(message, { content: read.text }, read.images ? { images: read.images } : {});
    }
    this.requests.push(request);
    this.keysUsed.push(key);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    res.once("close", () => (this.inFlight -= 1));
    const scripted = this.failure ?? this.responder?.(request) ?? this.script.shift() ?? { content: `fake reply to: ${request.messages.at(-1)?.content ?? ""}` };
    await sleep(scripted.firstTokenMs ?? scripted.delayMs ?? 0);
    if (scripted.error === "timeout") return; // hold the request open until the client gives up
    if (typeof scripted.error === "number") {
      const kinds = { 400: "invalid_request_error", 401: "invalid_api_key", 429: "rate_limit_exceeded", 500: "server_error" };
      const headers: Record<string, string> = {
        ...(scripted.requestId ? { "x-request-id": scripted.requestId } : {}),
        ...(scripted.retryAfterSeconds !== undefined ? { "retry-after": String(scripted.retryAfterSeconds) } : {}),
      };
      return json(res, scripted.error, { error: { message: scripted.errorMessage ?? `fake ${scripted.error}`, type: kinds[scripted.error] } }, headers);
    }
    // Like a real provider, a reply stops at max_tokens (a word counts as a token here, as in usage below).
    const limit = request.max_completion_tokens ?? request.max_tokens;
    const whole = scripted.content ?? scripted.chunks?.join("") ?? "";
    const content = limit !== undefined && !scripted.chunks ? (whole.match(/\S+\s*/g) ?? []).slice(0, limit).join("") : whole;
    const usage = { prompt_tokens: request.messages.reduce((sum, m) => sum + m.content.split(/\s+/).length, 0), completion_tokens: content.split(/\s+/).filter(Boolean).length };
    const totals = { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens };
    if (!request.stream) {
      const toolCalls = scripted.toolCalls?.map((call, index) => ({ id: `call_${index}`, type: "function", function: call }));
      return json(res, 200, {
        id: "chatcmpl-fake",
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [{ index: 0, message: { role: "assistant", content, ...(toolCalls ? { tool_calls: toolCalls } : {}) }, finish_reason: toolCalls ? "tool_calls" : "stop" }],
        usage: totals,
      });
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`);
    const chunk = (delta: object, finish: string | null = null) =>
      send({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: request.model, choices: [{ index: 0, delta, finish_reason: finish }] });
    chunk({ role: "assistant", content: "" });
    for (const piece of scripted.chunks ?? content.match(/\S+\s*/g) ?? []) {
      if (scripted.error === "malformed") {
        res.write("data: {this is not json\n\n");
        return void res.end();
      }
      chunk({ content: piece });
      await sleep(scripted.delayMs ?? 0);
    }
    scripted.toolCalls?.forEach((call, index) => chunk({ tool_calls: [{ index, id: `call_${index}`, type: "function", function: call }] }));
    chunk({}, scripted.toolCalls ? "tool_calls" : "stop");
    if (request.stream_options?.include_usage) send({ id: "chatcmpl-fake", object: "chat.completion.chunk", created: 0, model: request.model, choices: [], usage: totals });
    res.end("data: [DONE]\n\n");
  }
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString()) : {};
}

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  res.end(JSON.stringify(body));
}

interface EmbeddingRequest {
  input: string | string[];
  dimensions?: number;
  encoding_format?: "float" | "base64";
}

/** Deterministic vectors: the same text always embeds the same way. */
function embeddings(res: ServerResponse, body: EmbeddingRequest): void {
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  const dimensions = body.dimensions ?? 8;
  const data = inputs.map((text, index) => {
    const hash = createHash("sha256").update(text).digest();
    const vector = Array.from({ length: dimensions }, (_, i) => (hash[i % hash.length]! - 128) / 128);
    // The SDK asks for base64 (little-endian float32) by default and decodes it.
    const embedding = body.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
    return { object: "embedding", index, embedding };
  });
  json(res, 200, { object: "list", data, model: "fake-embedding", usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
}

const sleep = (ms: number) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
