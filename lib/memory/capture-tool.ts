import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/types";
import type { DetectedProcedure } from "./detect-procedure";
import { checkPattern } from "@/lib/validation/safe-pattern";

/** Offered to real models in every turn: a step-by-step way of doing a task worth keeping (reviewed before use). */
export const captureProcedureTool: ToolSpec = {
  name: "capture_procedure",
  description:
    "Call this when your answer walks someone through a reusable multi-step task (e.g. how to request leave). It saves the procedure for an admin to review; only approved procedures are used later.",
  parameters: {
    type: "object",
    properties: {
      name: { type: "string", description: "Short name of the task, e.g. 'Requesting annual leave'." },
      trigger: { type: "string", description: "Optional case-insensitive regular expression matching questions about this task." },
      steps: { type: "array", items: { type: "string" }, description: "The steps in order." },
    },
    required: ["name", "steps"],
  },
};

const argumentsSchema = z.object({
  name: z.string().trim().min(1).max(120),
  trigger: z.string().trim().max(300).optional(),
  steps: z.array(z.string().trim().min(1).max(500)).min(1).max(20),
});

/** The procedure a capture_procedure call describes, or null when its arguments do not hold up (a bad trigger is left out). */
export function readCaptureCall(json: string): (DetectedProcedure & { trigger: string | null }) | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return null;
  }
  const result = argumentsSchema.safeParse(parsed);
  if (!result.success) return null;
  const trigger = result.data.trigger && checkPattern(result.data.trigger) === null ? result.data.trigger : null;
  return { name: result.data.name, steps: result.data.steps, trigger };
}
