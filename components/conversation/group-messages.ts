import type { MessageAuthor, MessageDto } from "@/lib/conversations/message-dto";

/** Consecutive messages of one author within this gap share one header. */
const GROUP_GAP_MS = 5 * 60 * 1000;
/**
 * A group is one row of the virtualised list, rendered whole: a long run of one author's
 * messages goes on in a new group (with its header again) past this many.
 */
export const MAX_GROUP_SIZE = 20;

export interface MessageGroup {
  key: string;
  author: MessageAuthor;
  messages: MessageDto[];
}

export interface GroupingOptions {
  /**
   * Messages that always start a group: where older pages were added above, so the groups
   * already shown keep their first message (and key) whatever the older page holds.
   */
  breakBefore?: ReadonlySet<string>;
}

function authorKey(author: MessageAuthor): string {
  return author.kind === "system" ? "system" : `${author.kind}:${author.id}`;
}

export function groupMessages(messages: MessageDto[], { breakBefore }: GroupingOptions = {}): MessageGroup[] {
  const groups: MessageGroup[] = [];
  for (const message of messages) {
    const last = groups.at(-1);
    const previous = last?.messages.at(-1);
    const sameAuthor = last && authorKey(last.author) === authorKey(message.author) && message.author.kind !== "system";
    const close = previous && Date.parse(message.createdAt) - Date.parse(previous.createdAt) < GROUP_GAP_MS;
    const joins = last && sameAuthor && close && last.messages.length < MAX_GROUP_SIZE && !breakBefore?.has(message.id);
    if (joins) last.messages.push(message);
    else groups.push({ key: message.id, author: message.author, messages: [message] });
  }
  return groups;
}
