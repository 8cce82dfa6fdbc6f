import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { counterFor } from "@/lib/llm/token-counter";
import type { LoopMessage, StepMessage } from "@/lib/llm/types";
import { encode, freeTestEncoders, independentCount } from "./independent-count.fixture";
import { countPrompt, MessageCosts } from "./message-costs";

afterAll(freeTestEncoders);

describe("countPrompt: tool steps", () => {
  const gpt4o = counterFor("gpt-4o");
  const e = (text: string) => encode("o200k_base", text);

  it("counts an assistant message with calls as 3 + role + content (null as empty) + per call name + arguments + 3, and a tool message as 3 + role + content", () => {
    const calls: StepMessage = {
      role: "assistant",
      content: null,
      tool_calls: [
        { id: "call_1", type: "function", function: { name: "search_issues", arguments: '{"query":"login"}' } },
        { id: "call_2", type: "function", function: { name: "clock", arguments: "{}" } },
      ],
    };
    const result: StepMessage = { role: "tool", tool_call_id: "call_1", content: "#12 login fails on Safari" };
    const costs = new MessageCosts(gpt4o);
    expect(costs.step(calls)).toBe(3 + e("assistant") + 0 + (e("search_issues") + e('{"query":"login"}') + 3) + (e("clock") + e("{}") + 3));
    expect(costs.step({ ...calls, content: "Let me look." })).toBe(costs.step(calls) + e("Let me look."));
    expect(costs.step(result)).toBe(3 + e("tool") + e("#12 login fails on Safari"));
    // The call id is not counted (OpenAI's figure is unknown; ours leaves it out).
    expect(costs.step({ ...result, tool_call_id: "a-much-longer-call-identifier" })).toBe(costs.step(result));
    const prompt: LoopMessage[] = [{ role: "system", content: "You are Toby." }, { role: "user", content: "find it", name: "ann" }, calls, result];
    expect(countPrompt(prompt, gpt4o)).toBe(independentCount(prompt, "o200k_base"));
  });

  it("agrees with an independent count over random assembled messages and steps", () => {
    const text = fc.array(fc.constantFrom("alpha", "数据", "🎉", "the", "<|endoftext|>", '{"q":1}', "x".repeat(30)), { maxLength: 20 }).map((words) => words.join(" "));
    const call = fc.record({ id: fc.uuid(), type: fc.constant("function" as const), function: fc.record({ name: fc.constantFrom("search_issues", "clock", "add_note"), arguments: text }) });
    const message: fc.Arbitrary<LoopMessage> = fc.oneof(
      fc.record({ role: fc.constantFrom("system" as const, "user" as const, "assistant" as const), content: text }),
      fc.record({ role: fc.constant("user" as const), content: text, name: fc.constantFrom("ann", "bob_smith") }),
      fc.record({ role: fc.constant("user" as const), content: fc.tuple(text, fc.integer({ min: 1, max: 3 })).map(([words, images]) => [{ type: "text" as const, text: words }, ...Array.from({ length: images }, () => ({ type: "image_url" as const, image_url: { url: "attachment:x", detail: "low" as const } }))]) }),
      fc.record({ role: fc.constant("assistant" as const), content: fc.option(text, { nil: null }), tool_calls: fc.array(call, { minLength: 1, maxLength: 4 }) }),
      fc.record({ role: fc.constant("tool" as const), tool_call_id: fc.uuid(), content: text }),
    );
    fc.assert(
      fc.property(fc.array(message, { maxLength: 12 }), fc.constantFrom("gpt-4o", "gpt-3.5-turbo"), (messages, model) => {
        const counter = counterFor(model);
        expect(countPrompt(messages, counter)).toBe(independentCount(messages, counter.encoding));
      }),
      { numRuns: 300 },
    );
  });
});
