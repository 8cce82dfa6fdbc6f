import OpenAI from "openai";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createOpenAIProvider } from "@/lib/llm/openai-provider";
import { log } from "@/lib/log/logger";
import type { StreamEvent } from "@/lib/llm/types";
import { FakeOpenAI } from "../support/fake-openai";

const request = { model: "gpt-4o-mini", temperature: 0.2, maxOutputTokens: 50, messages: [{ role: "user" as const, content: "hi there" }] };

async function collect(events: AsyncIterable<StreamEvent>) {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("OpenAI provider against a fake OpenAI-compatible server (real SDK)", () => {
  let fake: FakeOpenAI;
  beforeAll(async () => {
    fake = await FakeOpenAI.start();
  });
  afterAll(() => fake.close());
  afterEach(() => vi.restoreAllMocks());

  const provider = (options: { maxRetries?: number; timeoutMs?: number } = {}) =>
    createOpenAIProvider({ apiKey: "test-key", baseURL: fake.baseURL, maxRetries: 0, timeoutMs: 2_000, ...options });

  it("streams the reply in order and reports token usage", async () => {
    fake.reply({ chunks: ["Hel", "lo ", "world"] });
    const events = await collect(provider().stream(request));
    expect(events).toEqual([
      { type: "delta", text: "Hel" },
      { type: "delta", text: "lo " },
      { type: "delta", text: "world" },
      { type: "usage", inputTokens: 2, outputTokens: 2 },
    ]);
    expect(fake.requests.at(-1)).toMatchObject({ model: "gpt-4o-mini", stream: true, messages: request.messages });
  });

  it("streams the model's tool calls after its text, each with the id its result must name", async () => {
    fake.reply({ content: "Looking.", toolCalls: [{ name: "search", arguments: '{"q":"chorus"}' }, { name: "clock", arguments: "{}" }] });
    const events = await collect(provider().stream({ ...request, tools: [{ name: "search", description: "Search.", parameters: { type: "object" } }] }));
    expect(events.filter((event) => event.type === "tool_call")).toEqual([
      { type: "tool_call", id: "call_0", name: "search", arguments: '{"q":"chorus"}' },
      { type: "tool_call", id: "call_1", name: "clock", arguments: "{}" },
    ]);
  });

  it("retries a 500 twice before succeeding", async () => {
    fake.reply({ error: 500 }, { error: 500 }, { content: "third time lucky" });
    const events = await collect(provider({ maxRetries: 2 }).stream(request));
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("")).toBe("third time lucky");
  });

  it("waits out a 429 for as long as the provider asks, then answers", async () => {
    const before = fake.requests.length;
    fake.reply({ error: 429, retryAfterSeconds: 0.3 }, { content: "after the wait" });
    const started = Date.now();
    const events = await collect(provider({ maxRetries: 2 }).stream(request));
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("")).toBe("after the wait");
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(fake.requests.length - before).toBe(2);
  });

  it("for a caller that waits it out itself (an agent turn gives its slot back), a 429 fails at once with the wait the provider asked for", async () => {
    vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const before = fake.requests.length;
    fake.reply({ error: 429, retryAfterSeconds: 7 });
    await expect(collect(provider({ maxRetries: 2 }).stream({ ...request, deferRateLimit: true }))).rejects.toMatchObject({ kind: "rate_limit", retryAfterMs: 7_000 });
    expect(fake.requests.length - before).toBe(1);
  });

  it.each([
    [401, "auth", /refused the API key/],
    [429, "rate_limit", /rate-limiting/],
    [500, "server", /internal error/],
    ["malformed", "malformed", /could not be read/],
  ] as const)("turns %s into an LlmError a person can read (%s), and logs its cause", async (error, kind, message) => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    fake.reply({ content: "partial answer here", error });
    await expect(collect(provider().stream(request))).rejects.toMatchObject({ kind, message: expect.stringMatching(message) });
    expect(warn).toHaveBeenCalledWith("model provider error", expect.objectContaining({ kind, ...(typeof error === "number" ? { status: error, message: `${error} fake ${error}` } : {}) }));
  });

  it("shows a short attributed text for a refused request, and logs the provider's words with its request id", async () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const providerWords = "Invalid 'messages[0].content': the prompt quoted back by the provider";
    fake.reply({ error: 400, errorMessage: providerWords, requestId: "req_7f3a9c" });
    const failure = await collect(provider().stream(request)).then(
      () => expect.unreachable("the request was refused"),
      (error: unknown) => error as Error,
    );
    expect(failure).toMatchObject({ kind: "bad_request", message: "The model provider refused the request (400). An admin can find the details in the server log." });
    expect(failure.message).not.toContain("Invalid");
    expect(warn).toHaveBeenCalledWith("model provider error", {
      model: "gpt-4o-mini",
      kind: "bad_request",
      status: 400,
      type: "invalid_request_error",
      code: undefined,
      message: `400 ${providerWords}`,
      requestId: "req_7f3a9c",
    });
  });

  it("times out a request that never answers", async () => {
    fake.reply({ error: "timeout" });
    await expect(collect(provider({ timeoutMs: 300 }).stream(request))).rejects.toMatchObject({ kind: "timeout" });
  });

  it("cancels mid-stream with an AbortSignal, which is no provider error to log", async () => {
    const warn = vi.spyOn(log, "warn");
    fake.reply({ content: "one two three four five six", delayMs: 50 });
    const controller = new AbortController();
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of provider().stream({ ...request, signal: controller.signal })) {
          seen.push(event);
          controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: "cancelled" });
    expect(seen).toHaveLength(1);
    expect(warn).not.toHaveBeenCalled();
  });

  it("serves tool calls and embeddings to the SDK", async () => {
    const client = new OpenAI({ apiKey: "k", baseURL: fake.baseURL });
    fake.reply({ toolCalls: [{ name: "search", arguments: '{"q":"chorus"}' }] });
    const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "look it up" }] });
    expect(completion.choices[0]!.message.tool_calls?.[0]).toMatchObject({ type: "function", function: { name: "search", arguments: '{"q":"chorus"}' } });
    const [a, b] = await Promise.all([client.embeddings.create({ model: "e", input: "same" }), client.embeddings.create({ model: "e", input: "same" })]);
    expect(a.data[0]!.embedding).toEqual(b.data[0]!.embedding);
    expect(a.data[0]!.embedding).toHaveLength(8);
  });
});
