import { z } from "zod";
import type { ConversationSummary } from "./list-conversations";

/** Which new messages of a conversation tell a person: all of them, those mentioning them, or none. */
export const NOTIFY_LEVELS = ["all", "mentions", "nothing"] as const;
export type NotifyLevel = (typeof NOTIFY_LEVELS)[number];

/** Without a choice: every message of a direct or agent chat, only mentions in a channel. */
export function defaultNotifyLevel(type: ConversationSummary["type"]): NotifyLevel {
  return type === "group" ? "mentions" : "all";
}

export const notificationsSchema = z.object({
  notify: z.enum(NOTIFY_LEVELS, { error: "Choose all messages, mentions only or nothing." }),
  muted: z.boolean({ error: "Say whether the conversation is muted." }),
});
export type NotificationsInput = z.infer<typeof notificationsSchema>;
