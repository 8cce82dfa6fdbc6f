import { describe, expect, it } from "vitest";
import { agentConfigSchema, defaultContextSettings, readContextSettings, toAgentColumns } from "./agent-settings";

const valid = {
  handle: "@Scout",
  displayName: "Scout",
  color: "#112233",
  systemPrompt: "You scout the web.",
  provider: "openai",
  model: "gpt-4o-mini",
  temperature: "0.2",
  maxOutputTokens: "512",
  historyWindow: "50",
};

const fieldErrors = (input: Record<string, unknown>) => {
  const parsed = agentConfigSchema.safeParse(input);
  if (parsed.success) return {};
  return Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("agent settings", () => {
  it("accepts a form's strings, normalises the handle and fills in the context defaults", () => {
    const config = agentConfigSchema.parse(valid);
    expect(config).toMatchObject({ handle: "scout", temperature: 0.2, maxOutputTokens: 512, historyWindow: 50, summarizeFraction: 0.3, summaryMaxTokens: 300 });
    expect(toAgentColumns(config).contextSettings).toEqual(defaultContextSettings);
  });

  it.each([
    ["an empty system prompt", { systemPrompt: "   " }, "systemPrompt", "The system prompt cannot be empty."],
    ["a history window below 1", { historyWindow: "0" }, "historyWindow", "History window must be at least 1."],
    ["a fractional history window", { historyWindow: "2.5" }, "historyWindow", "History window must be a whole number."],
    ["an unknown model format", { model: "gpt 4o!" }, "model", "Unknown model format: use a model id such as gpt-4o-mini or llama3.1:8b."],
    ["a handle with spaces", { handle: "my agent" }, "handle", "Use 1–24 letters, digits, dots, dashes or underscores, starting with a letter or digit."],
    ["an unknown pruning strategy", { pruningStrategy: "lifo" }, "pruningStrategy", "Choose FIFO, summarize or sliding window."],
    ["a colour that is not #rrggbb", { color: "blue" }, "color", "Pick a colour as #rrggbb."],
    ["a monthly token cap of zero", { monthlyTokenCap: "0" }, "monthlyTokenCap", "Monthly token cap must be more than 0 tokens: leave it empty for no cap."],
    ["a negative monthly token cap", { monthlyTokenCap: "-100" }, "monthlyTokenCap", "Monthly token cap must be more than 0 tokens: leave it empty for no cap."],
    ["a negative price", { outputUsdPerMillion: "-0.5" }, "outputUsdPerMillion", "Output price must be at least 0."],
  ])("refuses %s with an error on that field", (_case, change, field, message) => {
    expect(fieldErrors({ ...valid, ...change })[field]).toBe(message);
  });

  it("reads the form's checkbox and attachment limit: images off and 2,000 tokens unless set", () => {
    expect(agentConfigSchema.parse(valid)).toMatchObject({ acceptsImages: false, maxAttachmentTokens: 2_000 });
    expect(agentConfigSchema.parse({ ...valid, acceptsImages: "true", maxAttachmentTokens: "500" })).toMatchObject({ acceptsImages: true, maxAttachmentTokens: 500 });
    expect(fieldErrors({ ...valid, acceptsImages: "yes" }).acceptsImages).toBe("Say whether the model accepts images.");
    expect(fieldErrors({ ...valid, maxAttachmentTokens: "10" }).maxAttachmentTokens).toBe("Attachment text limit must be at least 100.");
  });

  it("reads an empty cap or price as none, and keeps them out of the context settings", () => {
    const config = agentConfigSchema.parse({ ...valid, monthlyTokenCap: "", inputUsdPerMillion: "0.15" });
    expect(config).toMatchObject({ monthlyTokenCap: null, inputUsdPerMillion: 0.15, outputUsdPerMillion: null });
    expect(toAgentColumns(config)).toMatchObject({ monthlyTokenCap: null, inputUsdPerMillion: 0.15, contextSettings: defaultContextSettings });
  });

  it("refuses a working-memory budget that the system prompt alone fills", () => {
    const errors = fieldErrors({ ...valid, systemPrompt: "word ".repeat(400), maxWorkingMemoryTokens: "300" });
    expect(errors.maxWorkingMemoryTokens).toMatch(/^The budget \(300 tokens\) must be larger than the system prompt \(\d+ tokens\)\.$/);
  });

  it("reads stored settings field by field, falling back to defaults for missing or invalid values", () => {
    expect(readContextSettings(null)).toEqual(defaultContextSettings);
    expect(readContextSettings({ pruningStrategy: "summarize", semanticTopK: -3 })).toEqual({ ...defaultContextSettings, pruningStrategy: "summarize" });
  });
});
