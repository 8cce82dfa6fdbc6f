import { z } from "zod";
import { refineSingleLine } from "@/lib/validation/plain-text";

export const TOPIC_MAX = 250;
export const CHAT_TITLE_MAX = 80;
/** A new agent chat is named after the start of its first message. */
export const FIRST_MESSAGE_TITLE_LENGTH = 60;

/** Shown on one line under the channel's name; empty clears it. */
export const topicSchema = z
  .string({ error: "A topic must be text." })
  .trim()
  .max(TOPIC_MAX, `A topic can be at most ${TOPIC_MAX} characters.`)
  .superRefine(refineSingleLine("Topics"));

/** An agent chat's own name (channels follow channelNameSchema). */
export const chatTitleSchema = z
  .string()
  .trim()
  .min(1, "Give the chat a name.")
  .max(CHAT_TITLE_MAX, `A chat's name can be at most ${CHAT_TITLE_MAX} characters.`)
  .superRefine(refineSingleLine("Chat names"));

/**
 * What PATCH /api/conversations/{id} and the settings dialog may change. The name's rules depend
 * on the conversation (a channel's or a chat's), so it is checked once that is known.
 */
export const conversationChangesSchema = z
  .object({
    name: z.string({ error: "name must be text." }).optional(),
    topic: topicSchema.nullable().optional(),
    archived: z.boolean({ error: "archived must be true or false." }).optional(),
  })
  .refine((changes) => changes.name !== undefined || changes.topic !== undefined || changes.archived !== undefined, {
    message: 'Say what to change: "name", "topic" or "archived".',
  });

export type ConversationChanges = z.infer<typeof conversationChangesSchema>;

// Line breaks, tabs and invisible controls (bidi ones included) would bend a one-line title.
const TITLE_BREAKERS = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u2028\u2029\u202A-\u202E\u2066-\u2069]+/g;

/** A chat's title from its first message: its first words, cut at a word within the length. */
export function chatTitleFrom(content: string): string {
  const text = content.replace(TITLE_BREAKERS, " ").replace(/\s+/g, " ").trim();
  // By code points, so an emoji is never cut in half.
  const characters = Array.from(text);
  if (characters.length <= FIRST_MESSAGE_TITLE_LENGTH) return text || "New chat";
  const cut = characters.slice(0, FIRST_MESSAGE_TITLE_LENGTH - 1).join("");
  // A cut that ends a word keeps it; otherwise back to the last whole word, if that keeps enough.
  const lastSpace = characters[FIRST_MESSAGE_TITLE_LENGTH - 1] === " " ? cut.length : cut.lastIndexOf(" ");
  return `${(lastSpace > FIRST_MESSAGE_TITLE_LENGTH / 2 ? cut.slice(0, lastSpace) : cut).trimEnd()}…`;
}
