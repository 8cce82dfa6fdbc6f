import { z } from "zod";
import { messageContentSchema } from "@/lib/conversations/message-input";
import { AppError } from "@/lib/errors/app-error";

export const messageIdSchema = z.uuid({ error: "That message id is not valid." });

/** A message id from a URL: anything that is not one names no message. */
export function parseMessageId(value: string): string {
  const parsed = messageIdSchema.safeParse(value);
  if (!parsed.success) throw new AppError("not_found", "That message does not exist.");
  return parsed.data;
}

/** PATCH /api/messages/{id}: an edit (optionally sent again to the agents), or a version to show. */
export const messageChangeSchema = z.union(
  [
    z.strictObject({ content: messageContentSchema, resend: z.boolean().optional() }),
    z.strictObject({ version: z.number({ error: "version must be a number." }).int().min(1, "Versions are numbered from 1.") }),
  ],
  { error: 'Send {"content": "the new text"} to edit (with "resend": true to ask its agents again), or {"version": 2} to show another version.' },
);
