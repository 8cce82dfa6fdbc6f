import type { MessageAuthor, MessageDto } from "@/lib/conversations/message-dto";

/** Consecutive messages of one author within this gap share one header. */
const GROUP_GAP_MS = 5 * 60 * 1000;

export interface MessageGroup {
  key: string;
  author: MessageAuthor;
  messages: MessageDto[];
}

function authorKey(author: MessageAuthor): string {
  return author.kind === "system" ? "system" : `${author.kind}:${author.id}`;
}

export function groupMessages(messages: MessageDto[]): MessageGroup[] {
  const groups: MessageGroup[] = [];
  for (const message of messages) {
    const last = groups.at(-1);
    const previous = last?.messages.at(-1);
    const sameAuthor = last && authorKey(last.author) === authorKey(message.author) && message.author.kind !== "system";
    const close = previous && Date.parse(message.createdAt) - Date.parse(previous.createdAt) < GROUP_GAP_MS;
    if (last && sameAuthor && close) last.messages.push(message);
    else groups.push({ key: message.id, author: message.author, messages: [message] });
  }
  return groups;
}
