import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/types";
import type { SpecialistTarget } from "./handoff-options";
import { handoffModes, type HandoffMode } from "./handoff-modes";

export const HANDOFF_TOOL = "handoff";

/** Offered to real models of orchestrators that have specialists: the specialists are its only targets. */
export function handoffTool(specialists: SpecialistTarget[]): ToolSpec {
  const available = specialists.filter((specialist) => specialist.enabled);
  return {
    name: HANDOFF_TOOL,
    description: [
      "Hand the person's message to a specialist who answers it in this conversation, instead of answering yourself. Specialists:",
      ...available.map((specialist) => `- ${specialist.handle}: ${specialist.displayName}${specialist.description ? `, ${specialist.description}` : ""}`),
    ].join("\n"),
    parameters: {
      type: "object",
      properties: {
        target: { type: "string", enum: available.map((specialist) => specialist.handle), description: "The specialist's handle." },
        summary: { type: "string", description: "What the specialist needs to know of the conversation so far, in a few sentences." },
        reason: { type: "string", description: "Why this specialist, in one sentence." },
        mode: { type: "string", enum: [...handoffModes], description: "Optional: how much of the conversation to share (default: the specialist's)." },
      },
      required: ["target", "summary", "reason"],
    },
  };
}

export interface HandoffRequest {
  /** A handle as the model or a rule named it. */
  target: string;
  summary: string;
  reason: string;
  mode?: HandoffMode;
}

const argumentsSchema = z.object({
  target: z.string().trim().min(1).max(100),
  summary: z.string().trim().min(1).max(4_000),
  reason: z.string().trim().max(500).default(""),
  mode: z.enum(handoffModes).optional(),
});

/** The handoff a model asked for, or why its arguments could not be used. */
export function readHandoffCall(json: string): HandoffRequest | { unreadable: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return { unreadable: "its arguments were not valid JSON" };
  }
  const result = argumentsSchema.safeParse(parsed);
  if (!result.success) return { unreadable: `its arguments were incomplete (${result.error.issues.map((issue) => issue.path.join(".") || "arguments").join(", ")})` };
  return { ...result.data, target: result.data.target.replace(/^@/, "") };
}
