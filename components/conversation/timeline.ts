import type { MessageDto } from "@/lib/conversations/message-dto";
import { groupMessages, type GroupingOptions, type MessageGroup } from "./group-messages";

export type TimelineItem =
  | { kind: "day"; key: string; label: string }
  | { kind: "unread"; key: string }
  | { kind: "group"; key: string; group: MessageGroup };

/** "Today", "Yesterday", "Monday 21 November", or with the year when it is not this year. */
export function dayLabel(day: Date, now: Date): string {
  const startOf = (date: Date) => new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime();
  const days = Math.round((startOf(now) - startOf(day)) / 86_400_000);
  if (days === 0) return "Today";
  if (days === 1) return "Yesterday";
  return day.toLocaleDateString(undefined, { weekday: "long", day: "numeric", month: "long", ...(day.getFullYear() === now.getFullYear() ? {} : { year: "numeric" }) });
}

const dayKey = (iso: string) => {
  const date = new Date(iso);
  return `${date.getFullYear()}-${date.getMonth()}-${date.getDate()}`;
};

/**
 * What the message list shows, in order: a divider at each new local day, a "New messages"
 * divider before the first message from someone else that was unread on opening (after
 * `readUpTo`, up to `openedAt`: what arrives while the person watches is read as it arrives),
 * and messages grouped by author within each stretch. Without `fromBeginning` (older messages
 * are still to load) a divider that would come first waits for what is before it to be loaded:
 * as older pages arrive, rows are only ever added above the first one, never moved.
 */
export function timelineItems(
  messages: MessageDto[],
  { readUpTo, openedAt, userId, now, breakBefore, fromBeginning = true }: { readUpTo: number; openedAt: number; userId: string; now: Date; fromBeginning?: boolean } & GroupingOptions,
): TimelineItem[] {
  const firstUnread = messages.find((message) => message.seq > readUpTo && message.seq <= openedAt && !(message.author.kind === "user" && message.author.id === userId));
  const items: TimelineItem[] = [];
  let stretch: MessageDto[] = [];
  const flush = () => {
    for (const group of groupMessages(stretch, { breakBefore })) items.push({ kind: "group", key: group.key, group });
    stretch = [];
  };
  let day: string | null = null;
  for (const message of messages) {
    const thisDay = dayKey(message.createdAt);
    if (thisDay !== day) {
      flush();
      if (day !== null || fromBeginning) items.push({ kind: "day", key: `day-${thisDay}`, label: dayLabel(new Date(message.createdAt), now) });
      day = thisDay;
    }
    if (message === firstUnread && (message !== messages[0] || fromBeginning)) {
      flush();
      items.push({ kind: "unread", key: "unread" });
    }
    stretch.push(message);
  }
  flush();
  return items;
}
