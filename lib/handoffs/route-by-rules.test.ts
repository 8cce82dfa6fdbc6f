import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { handoffSettingsSchema, readHandoffSettings } from "./handoff-settings";
import { routeByRules } from "./route-by-rules";

describe("routing by rules", () => {
  const toby = randomUUID();
  const sage = randomUUID();
  const specialists = [{ agentId: toby }, { agentId: sage }];

  it("answers with the first rule that matches: its place, pattern and target, or null", () => {
    const settings = readHandoffSettings({ orchestrator: true, specialists, routes: [{ pattern: "\\b(invoice|bill)", agentId: toby }, { pattern: "invoice|refund", agentId: sage }] });
    expect(routeByRules(settings, "My INVOICE is wrong")).toEqual({ index: 0, pattern: "\\b(invoice|bill)", agentId: toby });
    expect(routeByRules(settings, "a refund please")).toEqual({ index: 1, pattern: "invoice|refund", agentId: sage });
    expect(routeByRules(settings, "hello")).toBeNull();
  });

  it("keeps an orchestrator whose stored rule RE2 cannot run: that rule never matches, the others still route", () => {
    // Saved before rules were checked with RE2; refused if saved today.
    const stored = { orchestrator: true, specialists, routes: [{ pattern: "(?=.*urgent)invoice", agentId: sage }, { pattern: "\\binvoice", agentId: toby }] };
    const refused = handoffSettingsSchema.safeParse(stored);
    expect(refused.success || refused.error.issues.map((issue) => [issue.path.join("."), issue.message])).toEqual([
      ["routes.0.pattern", expect.stringMatching(/^The routing rule uses a look-ahead/)],
    ]);

    const settings = readHandoffSettings(stored);
    expect(settings).toMatchObject({ orchestrator: true, routes: stored.routes });
    expect(routeByRules(settings, "urgent: my invoice")).toEqual({ index: 1, pattern: "\\binvoice", agentId: toby });
  });
});
