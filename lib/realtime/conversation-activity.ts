import { lineStart } from "@/lib/text/line-start";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ConversationActivity, MessageMeta } from "./events";

const PREVIEW_CHARACTERS = 140;

/** How a message starts, on one line: what a notification or the inbox shows of it. */
export function previewOf(content: string): string {
  return lineStart(content, PREVIEW_CHARACTERS);
}

/**
 * A new message as the participants' other tabs hear of it (server) or as a tab in the room
 * derives it from the message and its meta (client; none on catch-up).
 */
export function activityOf(message: MessageDto, meta: MessageMeta | undefined): ConversationActivity {
  const { author } = message;
  return {
    conversationId: message.conversationId,
    seq: message.seq,
    authorUserId: author.kind === "user" ? author.id : null,
    authorName: author.kind === "user" ? author.name : author.kind === "agent" ? author.displayName : "Chorus",
    preview: previewOf(message.content),
    mentionedUserIds: meta?.mentionedUserIds ?? [],
    ...(meta?.answersUserId ? { answersUserId: meta.answersUserId } : {}),
  };
}
