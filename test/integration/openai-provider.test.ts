import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOpenAIProvider } from "@/lib/llm/openai-provider";
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

  it("retries a 429 and a 500 before succeeding", async () => {
    fake.reply({ error: 429 }, { error: 500 }, { content: "third time lucky" });
    const events = await collect(provider({ maxRetries: 2 }).stream(request));
    expect(events.filter((e) => e.type === "delta").map((e) => (e as { text: string }).text).join("")).toBe("third time lucky");
  });

  it.each([
    [401, "auth", /refused the API key/],
    [429, "rate_limit", /rate-limiting/],
    [500, "server", /internal error/],
    ["malformed", "malformed", /could not be read/],
  ] as const)("turns %s into an LlmError a person can read (%s)", async (error, kind, message) => {
    fake.reply({ content: "partial answer here", error });
    await expect(collect(provider().stream(request))).rejects.toMatchObject({ kind, message: expect.stringMatching(message) });
  });

  it("times out a request that never answers", async () => {
    fake.reply({ error: "timeout" });
    await expect(collect(provider({ timeoutMs: 300 }).stream(request))).rejects.toMatchObject({ kind: "timeout" });
  });

  it("cancels mid-stream with an AbortSignal", async () => {
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
