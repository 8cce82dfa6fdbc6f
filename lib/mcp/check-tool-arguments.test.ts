import { describe, expect, it } from "vitest";
import { checkToolArguments } from "./check-tool-arguments";

const searchIssues = {
  name: "tracker__search_issues",
  parameters: {
    type: "object",
    properties: { query: { type: "string", minLength: 1 }, limit: { type: "integer", minimum: 1, maximum: 50 }, state: { type: "string", enum: ["open", "closed"] } },
    required: ["query"],
    additionalProperties: false,
  },
};

describe("checkToolArguments", () => {
  it("passes arguments that fit the tool's schema, as an object", () => {
    expect(checkToolArguments(searchIssues, '{"query":"login","limit":5,"state":"open"}')).toEqual({ ok: true, args: { query: "login", limit: 5, state: "open" } });
    expect(checkToolArguments({ name: "clock__now", parameters: { type: "object", properties: {} } }, "")).toEqual({ ok: true, args: {} });
  });

  it("turns arguments that fail the schema into the call's result, saying where and what, without running the tool", () => {
    const missing = checkToolArguments(searchIssues, '{"limit":5}');
    expect(missing.ok).toBe(false);
    expect(!missing.ok && missing.result).toMatch(/^Not run: invalid arguments: query: /);
    const wrong = checkToolArguments(searchIssues, '{"query":"x","limit":500,"state":"maybe"}');
    expect(!wrong.ok && wrong.result).toMatch(/^Not run: invalid arguments: limit: .*; state: /);
    const extra = checkToolArguments(searchIssues, '{"query":"x","drop_table":true}');
    expect(extra.ok).toBe(false);
  });

  it("refuses what is not a JSON object, whatever the schema", () => {
    expect(checkToolArguments(searchIssues, "{not json")).toEqual({ ok: false, result: "Not run: invalid arguments: they are not valid JSON ({not json)" });
    expect(checkToolArguments(searchIssues, '["login"]')).toEqual({ ok: false, result: "Not run: invalid arguments: they must be a JSON object of named arguments" });
  });
});
