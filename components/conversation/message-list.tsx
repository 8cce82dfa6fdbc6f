import type { MessageDto } from "@/lib/conversations/message-dto";
import { groupMessages } from "./group-messages";
import { MessageGroup } from "./message-group";

/**
 * Messages grouped by author, with a "New messages" divider before the first message from
 * someone else that was unread when the conversation was opened: after `readUpTo`, up to
 * `openedAt` (what arrives while the person watches is read as it arrives).
 */
export function MessageList({ messages, readUpTo, openedAt, userId }: { messages: MessageDto[]; readUpTo: number; openedAt: number; userId: string }) {
  const firstUnread = messages.find(
    (message) => message.seq > readUpTo && message.seq <= openedAt && !(message.author.kind === "user" && message.author.id === userId),
  );
  const before = firstUnread ? messages.filter((message) => message.seq < firstUnread.seq) : messages;
  const after = firstUnread ? messages.filter((message) => message.seq >= firstUnread.seq) : [];
  return (
    <>
      {groupMessages(before).map((group) => (
        <MessageGroup key={group.key} group={group} />
      ))}
      {firstUnread && (
        <li role="separator" aria-label="New messages" className="my-2 flex items-center gap-2 px-4 text-xs font-semibold text-red-600">
          <span className="h-px flex-1 bg-red-300" />
          New messages
          <span className="h-px flex-1 bg-red-300" />
        </li>
      )}
      {groupMessages(after).map((group) => (
        <MessageGroup key={group.key} group={group} />
      ))}
    </>
  );
}
