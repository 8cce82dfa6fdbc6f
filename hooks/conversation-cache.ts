import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ConversationActivity, ConversationUpdate } from "@/lib/realtime/events";

/**
 * Sidebar counts patched from socket events instead of refetched: a new message raises
 * lastSeq (and the mention count when it names me); my own message, or a read in any tab,
 * moves lastReadSeq.
 */
export function applyActivity(list: ConversationSummary[] | undefined, activity: ConversationActivity, me: string) {
  if (!list) return list;
  return list.map((conversation) => {
    if (conversation.id !== activity.conversationId || activity.seq <= conversation.lastSeq) return conversation;
    const own = activity.authorUserId === me;
    const lastReadSeq = own ? activity.seq : conversation.lastReadSeq;
    const mentions = conversation.mentions + (!own && activity.mentionedUserIds.includes(me) ? 1 : 0);
    return { ...conversation, lastSeq: activity.seq, lastReadSeq, unread: Math.max(activity.seq - lastReadSeq, 0), mentions };
  });
}

export function applyReadUpdate(list: ConversationSummary[] | undefined, summary: ConversationSummary) {
  return list?.map((conversation) => (conversation.id === summary.id ? summary : conversation));
}

/** Renamed, given a topic, archived or unarchived: the header and the sidebar follow. */
export function applyConversationUpdate(list: ConversationSummary[] | undefined, update: ConversationUpdate) {
  return list?.map((conversation) =>
    conversation.id === update.conversationId ? { ...conversation, title: update.title, topic: update.topic, archived: update.archived } : conversation,
  );
}

/** Left, or removed by someone else: it is no longer this person's to list. */
export function dropConversation(list: ConversationSummary[] | undefined, conversationId: string) {
  return list?.filter((conversation) => conversation.id !== conversationId);
}
