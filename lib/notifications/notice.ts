import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ConversationActivity } from "@/lib/realtime/events";

export interface Notice {
  title: string;
  body: string;
  /** One notice per conversation: a newer one replaces it. */
  tag: string;
}

/** What the rule needs of a conversation: the person's choice for it, and what to call it. */
export type NoticeConversation = Pick<ConversationSummary, "id" | "type" | "title" | "notify" | "muted">;

/**
 * What a new message tells a person, as they chose for the conversation (notify, muted): with
 * "mentions", a mention of them or an agent's answer to their question; with "all", any message
 * of someone else. Their own messages tell nothing, nor does a muted conversation. Desktop
 * notifications (a hidden tab) and Web Push (Chorus closed) both follow it.
 */
export function noticeFor(activity: ConversationActivity, { me, conversation }: { me: string; conversation: NoticeConversation | undefined }): Notice | null {
  if (!conversation || activity.authorUserId === me || conversation.muted || conversation.notify === "nothing") return null;
  const mentioned = activity.mentionedUserIds.includes(me);
  const answered = activity.answersUserId === me;
  if (!mentioned && !answered && conversation.notify !== "all") return null;
  const where = conversation.type === "group" ? ` in #${conversation.title}` : "";
  const title = mentioned
    ? `${activity.authorName} mentioned you${where}`
    : answered
      ? `${activity.authorName} answered you${where}`
      : conversation.type === "group"
        ? `${activity.authorName}${where}`
        : activity.authorUserId === null
          ? `${activity.authorName} answered you`
          : `${activity.authorName} sent you a message`;
  return { title, body: activity.preview || "(no text)", tag: `chorus:${conversation.id}` };
}

/** Where a notice's click leads: the message in its conversation. */
export function noticeUrl(activity: Pick<ConversationActivity, "conversationId" | "seq">): string {
  return `/c/${activity.conversationId}?at=${activity.seq}`;
}
