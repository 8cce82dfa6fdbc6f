import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ConversationActivity } from "./events";

const PREVIEW_CHARACTERS = 140;

/** A new message as the participants' other tabs hear of it (server) or as a tab in the room derives it (client). */
export function activityOf(message: MessageDto, mentionedUserIds: string[]): ConversationActivity {
  const { author } = message;
  const text = message.content.replace(/\s+/g, " ").trim();
  return {
    conversationId: message.conversationId,
    seq: message.seq,
    authorUserId: author.kind === "user" ? author.id : null,
    authorName: author.kind === "user" ? author.name : author.kind === "agent" ? author.displayName : "Chorus",
    preview: text.length > PREVIEW_CHARACTERS ? `${text.slice(0, PREVIEW_CHARACTERS - 1)}…` : text,
    mentionedUserIds,
  };
}
