import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { counterFor } from "@/lib/llm/token-counter";
import type { ChatMessage, StepMessage, ToolCallsMessage, ToolResultMessage } from "@/lib/llm/types";
import { freeTestEncoders, independentCount, independentToolTokens } from "./independent-count.fixture";
import { LEFT_OUT_RESULT, planNextCall } from "./plan-next-call";
import type { OfferedTool } from "./types";

afterAll(freeTestEncoders);
const gpt4o = counterFor("gpt-4o");
const count = (messages: Parameters<typeof independentCount>[0]) => independentCount(messages, "o200k_base");

const assembled: ChatMessage[] = [
  { role: "system", content: "You are Toby." },
  { role: "user", content: "@toby what broke the login?", name: "ann" },
];
const search: OfferedTool = { name: "search_issues", server: "tracker", askFirst: false, description: "Search issues.", parameters: { type: "object", properties: { query: { type: "string" } } } };
const toolTokens = independentToolTokens(search, "o200k_base");
const asks = (id: string, text: string | null = null): ToolCallsMessage => ({ role: "assistant", content: text, tool_calls: [{ id, type: "function", function: { name: "search_issues", arguments: '{"query":"login"}' } }] });
const result = (id: string, content: string): ToolResultMessage => ({ role: "tool", tool_call_id: id, content });
const longResult = (label: string) => `${label}: ${"stack frame at login.ts ".repeat(40)}`;
const steps: StepMessage[] = [asks("c1", "Looking."), result("c1", longResult("first")), asks("c2"), result("c2", longResult("second"))];

describe("planNextCall", () => {
  it("sends the assembled messages and the tools first, counted as the assembly counted them", () => {
    const next = planNextCall({ messages: assembled, tools: [search], steps: [], maxTokens: 1000, counter: gpt4o });
    expect(next).toEqual({ messages: assembled, withTools: true, leftOut: 0, call: { usedTokens: count(assembled) + toolTokens } });
  });

  it("takes the assembled messages' cost when given (the assembly counted them), the same plan", () => {
    for (const given of [[], steps]) {
      const counted = planNextCall({ messages: assembled, tools: [search], steps: given, maxTokens: count([...assembled, ...given]) + toolTokens, counter: gpt4o });
      expect(planNextCall({ messages: assembled, tools: [search], steps: given, maxTokens: count([...assembled, ...given]) + toolTokens, counter: gpt4o, messagesTokens: count(assembled) })).toEqual(counted);
    }
  });

  it("then the same messages followed by this turn's steps, and the tools again", () => {
    const next = planNextCall({ messages: assembled, tools: [search], steps, maxTokens: 10_000, counter: gpt4o });
    expect(next.messages).toEqual([...assembled, ...steps]);
    expect(next).toMatchObject({ withTools: true, leftOut: 0, call: { usedTokens: count([...assembled, ...steps]) + toolTokens } });
  });

  it("leaves out this turn's oldest results, one at a time, when the next call would not fit", () => {
    const firstOut = [...assembled, steps[0]!, result("c1", LEFT_OUT_RESULT), steps[2]!, steps[3]!];
    const budget = count(firstOut) + toolTokens;
    const next = planNextCall({ messages: assembled, tools: [search], steps, maxTokens: budget, counter: gpt4o });
    expect(next.messages).toEqual(firstOut);
    expect(next).toMatchObject({ withTools: true, leftOut: 1, call: { usedTokens: budget } });

    const both = planNextCall({ messages: assembled, tools: [search], steps, maxTokens: budget - 1, counter: gpt4o });
    expect(both.messages).toEqual([...assembled, steps[0]!, result("c1", LEFT_OUT_RESULT), steps[2]!, result("c2", LEFT_OUT_RESULT)]);
    expect(both).toMatchObject({ withTools: true, leftOut: 2 });
  });

  it("when leaving out every result is not enough, asks once more without tools", () => {
    const allOut = [...assembled, steps[0]!, result("c1", LEFT_OUT_RESULT), steps[2]!, result("c2", LEFT_OUT_RESULT)];
    const next = planNextCall({ messages: assembled, tools: [search], steps, maxTokens: count(allOut) + toolTokens - 1, counter: gpt4o });
    expect(next).toEqual({ messages: allOut, withTools: false, leftOut: 2, call: { usedTokens: count(allOut) } });
  });

  it("when even that does not fit, makes no call and records the budget error", () => {
    const allOut = [...assembled, steps[0]!, result("c1", LEFT_OUT_RESULT), steps[2]!, result("c2", LEFT_OUT_RESULT)];
    const next = planNextCall({ messages: assembled, tools: [search], steps, maxTokens: count(allOut) - 1, counter: gpt4o });
    expect(next).toMatchObject({ messages: [], withTools: false, call: { usedTokens: 0, error: "budget" } });
  });

  it("never sends tools that were not offered", () => {
    const next = planNextCall({ messages: assembled, tools: [], steps: [], maxTokens: 1000, counter: gpt4o });
    expect(next).toEqual({ messages: assembled, withTools: false, leftOut: 0, call: { usedTokens: count(assembled) } });
  });

  it("over random steps and budgets: each call fits and is counted exactly, results leave oldest first, or the turn ends with the budget error", () => {
    const text = fc.array(fc.constantFrom("alpha", "数据", "🎉", "the", '{"q":1}', "x".repeat(30)), { maxLength: 40 }).map((words) => words.join(" "));
    const step = fc.tuple(fc.option(text, { nil: null }), fc.array(fc.tuple(fc.constantFrom("search_issues", "clock"), text, text), { minLength: 1, maxLength: 3 }));
    const tool = fc.record({ name: fc.constantFrom("search_issues", "clock"), server: fc.constant("chorus"), askFirst: fc.boolean(), description: text, parameters: fc.constant({ type: "object" }) });
    fc.assert(
      fc.property(fc.array(step, { maxLength: 5 }), fc.array(tool, { maxLength: 3 }), fc.integer({ min: 10, max: 1500 }), fc.constantFrom("gpt-4o", "gpt-3.5-turbo"), (rounds, tools, maxTokens, model) => {
        const counter = counterFor(model);
        let id = 0;
        const steps: StepMessage[] = rounds.flatMap(([said, calls]) => {
          const ids = calls.map(() => `call_${id++}`);
          return [
            { role: "assistant", content: said, tool_calls: calls.map(([name, args], index) => ({ id: ids[index]!, type: "function", function: { name, arguments: args } })) } satisfies StepMessage,
            ...calls.map(([, , output], index) => ({ role: "tool", tool_call_id: ids[index]!, content: output }) satisfies StepMessage),
          ];
        });
        const next = planNextCall({ messages: assembled, tools, steps, maxTokens, counter });
        const toolsCost = tools.reduce((sum, each) => sum + independentToolTokens(each, counter.encoding), 0);
        const allOut = steps.map((each) => (each.role === "tool" ? { ...each, content: LEFT_OUT_RESULT } : each));
        if (next.call.error) {
          expect(next).toMatchObject({ messages: [], withTools: false, call: { usedTokens: 0, error: "budget" } });
          expect(independentCount([...assembled, ...allOut], counter.encoding)).toBeGreaterThan(maxTokens);
          return;
        }
        expect(next.call.usedTokens).toBe(independentCount(next.messages, counter.encoding) + (next.withTools ? toolsCost : 0));
        expect(next.call.usedTokens).toBeLessThanOrEqual(maxTokens);
        if (tools.length === 0) expect(next.withTools).toBe(false);
        // The assembled messages first, then the steps, the oldest `leftOut` results replaced and nothing else changed.
        expect(next.messages.slice(0, assembled.length)).toEqual(assembled);
        let results = 0;
        next.messages.slice(assembled.length).forEach((sent, index) => {
          const original = steps[index]!;
          if (original.role === "tool") expect(sent).toEqual(results++ < next.leftOut ? { ...original, content: LEFT_OUT_RESULT } : original);
          else expect(sent).toBe(original);
        });
        // Results are left out only when needed: one fewer would not have fit with tools.
        if (next.leftOut > 0) {
          const fewer = steps.map((each, index) => (each.role === "tool" && steps.slice(0, index).filter((s) => s.role === "tool").length < next.leftOut - 1 ? { ...each, content: LEFT_OUT_RESULT } : each));
          expect(independentCount([...assembled, ...fewer], counter.encoding) + toolsCost).toBeGreaterThan(maxTokens);
        }
        // Tools are dropped only when every result is out and it still would not fit with them.
        if (tools.length > 0 && !next.withTools) {
          expect(next.leftOut).toBe(steps.filter((each) => each.role === "tool").length);
          expect(independentCount([...assembled, ...allOut], counter.encoding) + toolsCost).toBeGreaterThan(maxTokens);
        }
      }),
      { numRuns: 300 },
    );
  });
});
