import { z } from "zod";
import { integer } from "@/lib/validation/numbers";
import { checkPattern } from "@/lib/validation/safe-pattern";
import { handoffModes } from "./handoff-modes";

export const specialistSchema = z.object({
  agentId: z.string().uuid("Choose a specialist."),
  mode: z.enum(handoffModes, { error: "Choose summary, recent, full or fork." }).default("summary"),
  /** recent: how many messages the specialist sees. */
  recentN: integer("Recent messages", 1, 200).default(10),
  /** fork: how many messages are copied into the fork as its starting context. */
  forkHistory: integer("Messages copied into the fork", 0, 50).default(5),
});

const patternSchema = z.string().trim().min(1, "Write a pattern.");
const routeTargetSchema = z.string().uuid("Choose the specialist this rule routes to.");

/** A routing rule as an admin saves it: RE2 must be able to run its pattern (see checkPattern). */
export const routingRuleSchema = z.object({
  pattern: patternSchema.superRefine((pattern, context) => {
    const problem = checkPattern(pattern, "routing rule");
    if (problem) context.addIssue({ code: "custom", message: problem });
  }),
  agentId: routeTargetSchema,
});

/**
 * A routing rule as a turn reads it: patterns were checked when saved, and one saved under older
 * rules that RE2 cannot run simply never matches, so the orchestrator keeps its other rules.
 */
const storedRoutingRuleSchema = z.object({ pattern: patternSchema, agentId: routeTargetSchema });

/**
 * An orchestrator's handoff settings (the agent's `handoffSettings` JSON): the specialists it may
 * hand off to, each with its sharing mode; routing rules the offline model follows (first match
 * wins); and how many handoffs one message may cause before the last agent answers itself.
 */
function settingsSchema(rule: typeof routingRuleSchema) {
  return z
    .object({
      orchestrator: z.boolean({ error: "Say whether this agent orchestrates." }).default(false),
      maxDepth: integer("Handoff depth", 1, 10).default(3),
      specialists: z.array(specialistSchema).max(20, "At most 20 specialists.").default([]),
      routes: z.array(rule).max(50, "At most 50 routing rules.").default([]),
    })
    .superRefine((settings, context) => {
      const ids = settings.specialists.map((specialist) => specialist.agentId);
      ids.forEach((id, index) => {
        if (ids.indexOf(id) !== index) context.addIssue({ code: "custom", path: ["specialists", index, "agentId"], message: "This specialist is listed twice." });
      });
      settings.routes.forEach((route, index) => {
        if (!ids.includes(route.agentId)) context.addIssue({ code: "custom", path: ["routes", index, "agentId"], message: "Route only to one of the specialists listed above." });
      });
    });
}

export const handoffSettingsSchema = settingsSchema(routingRuleSchema);
const storedHandoffSettingsSchema = settingsSchema(storedRoutingRuleSchema);

export type HandoffSettings = z.infer<typeof handoffSettingsSchema>;
export type Specialist = z.infer<typeof specialistSchema>;

export const noHandoffs: HandoffSettings = { orchestrator: false, maxDepth: 3, specialists: [], routes: [] };

/** Stored settings as a turn uses them; settings that no longer validate hand off nothing. */
export function readHandoffSettings(stored: unknown): HandoffSettings {
  const parsed = storedHandoffSettingsSchema.safeParse(stored ?? {});
  return parsed.success ? parsed.data : noHandoffs;
}
