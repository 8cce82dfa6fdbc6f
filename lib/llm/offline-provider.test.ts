import { describe, expect, it } from "vitest";
import { knowledgeText } from "@/lib/context/section-text";
import { createOfflineProvider, offlineReply } from "./offline-provider";
import type { StreamEvent } from "./types";

const request = {
  model: "offline",
  temperature: 0,
  maxOutputTokens: 100,
  messages: [
    { role: "system" as const, content: "You are Toby." },
    { role: "user" as const, content: "earlier", name: "Mia" },
    { role: "assistant" as const, content: "reply" },
    { role: "user" as const, content: "What is   the plan?" },
  ],
};

async function collect(events: AsyncIterable<StreamEvent>) {
  const all: StreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe("offline provider", () => {
  it("streams a deterministic answer in several chunks that says what context it received", async () => {
    const provider = createOfflineProvider({ chunkDelayMs: 0 });
    const first = await collect(provider.stream(request));
    const second = await collect(provider.stream(request));
    const text = first.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");

    expect(first).toEqual(second);
    expect(first.filter((event) => event.type === "delta").length).toBeGreaterThan(5);
    expect(text).toContain('(offline model) You said: "What is the plan?"');
    expect(text).toContain("I received 2 earlier messages and these sections: system prompt, history (2 messages), current message.");
    expect(first.at(-1)).toMatchObject({ type: "usage", outputTokens: expect.any(Number) });
  });

  it("stops when the signal is aborted", async () => {
    const controller = new AbortController();
    const provider = createOfflineProvider({ chunkDelayMs: 0 });
    const seen: StreamEvent[] = [];
    await expect(
      (async () => {
        for await (const event of provider.stream({ ...request, signal: controller.signal })) {
          seen.push(event);
          if (seen.length === 2) controller.abort();
        }
      })(),
    ).rejects.toMatchObject({ kind: "cancelled" });
    expect(seen).toHaveLength(2);
  });
});

describe("offline provider: context and summaries", () => {
  it("says what the context holds when the turn tells it", async () => {
    const provider = createOfflineProvider({ chunkDelayMs: 0 });
    const events = await collect(provider.stream({ ...request, contextReport: "system prompt (9 tokens), current message (12 tokens); 30 of 8,000 tokens used (fifo pruning)." }));
    const text = events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");
    expect(text).toContain("I received: system prompt (9 tokens), current message (12 tokens); 30 of 8,000 tokens used (fifo pruning).");
  });

  it("cites the first knowledge excerpt it was given as [1], quoting it as written, and cites nothing without knowledge", () => {
    const chunk = (source: string, content: string) => ({ id: source, source, content, documentId: "doc", ordinal: 0, score: 1 });
    const knowledge = knowledgeText([chunk('Leave & "Holidays".md', "Annual leave is\n\n25 days <per year>."), chunk("Other.md", "Not this one.")]);
    const reply = offlineReply({ ...request, messages: [request.messages[0]!, { role: "system", content: knowledge }, request.messages[3]!] });
    expect(reply).toContain('According to Leave & "Holidays".md [1]: "Annual leave is 25 days <per year>."');
    expect(reply).not.toContain("[2]");
    expect(offlineReply(request)).not.toContain("According to");
  });

  it("lists the steps a message teaches, one per line, and nothing of the kind otherwise", () => {
    const taught = offlineReply({ ...request, messages: [{ role: "user", content: "How to deploy:\n1. Merge to main\n2) Wait for CI\n3. Press Release" }] });
    expect(taught).toContain("The steps, as I read them:\n1. Merge to main\n2. Wait for CI\n3. Press Release");
    expect(offlineReply({ ...request, messages: [{ role: "user", content: "1. Only\n2. two steps" }] })).not.toContain("The steps");
  });

  it("quotes the question of a panel's round message, not its sections", () => {
    const content = "<CONVERSATION_HISTORY>\nann: hi\n</CONVERSATION_HISTORY>\n\n<CURRENT_MESSAGE>\nann: is 1 &lt; 2?\n</CURRENT_MESSAGE>\n\n<CURRENT_ANSWERS>\n(no answers yet)\n</CURRENT_ANSWERS>";
    expect(offlineReply({ ...request, messages: [{ role: "user", content }] })).toContain('You said: "ann: is 1 < 2?"');
  });

  it("answers a summary request with an extractive summary within the token limit", async () => {
    const provider = createOfflineProvider({ chunkDelayMs: 0 });
    const prompt = "Summarize this conversation history concisely:\nann: We ship on Friday. Then we rest.\ntoby: The tests pass! More later.\nann: " + "very long ".repeat(200);
    const events = await collect(provider.stream({ ...request, maxOutputTokens: 20, messages: [{ role: "user", content: prompt }] }));
    const text = events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");
    expect(text).toBe("ann: We ship on Friday. toby: The tests pass!");
  });
});

describe("offline provider: tools", () => {
  const tools = [
    { name: "notes__search_notes", description: "Search the notes.", parameters: { type: "object", properties: { query: { type: "string" } }, required: ["query"] } },
    { name: "notes__add_note", description: "Add a note.", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } },
  ];
  const asking = (content: string) => ({ ...request, tools, messages: [...request.messages.slice(0, -1), { role: "user" as const, content }] });
  const said = (events: StreamEvent[]) => events.flatMap((event) => (event.type === "delta" ? [event.text] : [])).join("");
  /** The request of the loop's next call: the assembled messages, the model's call, then its result. */
  const answered = (name: string, content: string) => {
    const first = asking("search the notes for staging");
    return {
      ...first,
      messages: [
        ...first.messages,
        { role: "assistant" as const, content: null, tool_calls: [{ id: "offline_call_1", type: "function" as const, function: { name, arguments: "{}" } }] },
        { role: "tool" as const, tool_call_id: "offline_call_1", content },
      ],
    };
  };

  it("calls the tool a message asks for plainly, alone and with no text, then reports usage", async () => {
    const events = await collect(createOfflineProvider({ chunkDelayMs: 0 }).stream(asking("@scout search the notes for staging?")));
    expect(events).toEqual([
      { type: "tool_call", id: "offline_call_1", name: "notes__search_notes", arguments: '{"query":"staging"}' },
      { type: "usage", inputTokens: expect.any(Number), outputTokens: expect.any(Number) },
    ]);
  });

  it("answers as before when the message asks for no tool, naming the tools it could call", async () => {
    const text = said(await collect(createOfflineProvider({ chunkDelayMs: 0 }).stream(asking("What is the plan?"))));
    expect(text).toContain('(offline model) You said: "What is the plan?"');
    expect(text).toContain('I can call search_notes, add_note when you ask plainly');
    // Chorus's own tools are not the person's to call.
    expect(offlineReply({ ...request, tools: [{ name: "capture_procedure", description: "", parameters: {} }] })).not.toContain("I can call");
  });

  it("answers with the results its call brought back, and calls nothing more", async () => {
    const events = await collect(createOfflineProvider({ chunkDelayMs: 0 }).stream(answered("notes__search_notes", '1 note matches "staging":\n- #3 (2025-01-06): Staging runs at https://staging.chorus.local')));
    expect(events.some((event) => event.type === "tool_call")).toBe(false);
    expect(said(events)).toBe('(offline model) I used search_notes: 1 note matches "staging":\n- #3 (2025-01-06): Staging runs at https://staging.chorus.local');
  });

  it("says it could not use a tool whose call never ran, quoting why", () => {
    expect(offlineReply(answered("notes__add_note", "Not run: denied by Adam Admin (not now)"))).toBe('(offline model) I could not use add_note: "denied by Adam Admin (not now)".');
    expect(offlineReply({ ...answered("notes__add_note", "Not run: approval expired"), tools: [] })).toBe('(offline model) I could not use add_note: "approval expired".');
  });
});
