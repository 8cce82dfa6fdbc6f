import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { refinePlainText } from "@/lib/validation/plain-text";
import type { Decision } from "./decide-tool-call";

const approvalIdSchema = z.uuid();

/** An approval id from a URL: anything that is not one names no approval. */
export function parseApprovalId(value: string): string {
  const parsed = approvalIdSchema.safeParse(value);
  if (!parsed.success) throw new AppError("not_found", "That tool call does not exist.");
  return parsed.data;
}

const denialSchema = z.strictObject({
  reason: z.string({ error: "The reason must be text." }).trim().max(500, "Keep the reason under 500 characters.").superRefine(refinePlainText("Reasons")).optional(),
});

/** POST …/deny's body: `{"reason": "…"}`, or nothing (no reason given). */
export async function readDenial(request: Request): Promise<Extract<Decision, { kind: "deny" }>> {
  const text = await request.text();
  let body: unknown = {};
  if (text.trim() !== "") {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError("bad_request", 'The body must be JSON, like {"reason": "not now"}, or empty.');
    }
  }
  const parsed = denialSchema.safeParse(body);
  if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? 'Send {"reason": "…"} or nothing.');
  return { kind: "deny", reason: parsed.data.reason ?? "" };
}
