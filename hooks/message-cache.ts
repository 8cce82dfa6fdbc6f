import type { InfiniteData } from "@tanstack/react-query";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessagePage } from "@/lib/conversations/list-messages";

export type MessagesData = InfiniteData<MessagePage>;

/**
 * Merges messages that arrived live (socket, send result, reconnect catch-up) into the cached
 * pages: each id appears once, the newest page stays ordered newest first.
 */
export function mergeMessages(data: MessagesData | undefined, incoming: MessageDto[]): MessagesData | undefined {
  if (!data || incoming.length === 0) return data;
  const known = new Set(data.pages.flatMap((page) => page.messages.map((message) => message.id)));
  const fresh = incoming.filter((message) => !known.has(message.id));
  if (fresh.length === 0) return data;
  const [first, ...rest] = data.pages;
  const merged = [...fresh, ...(first?.messages ?? [])].sort((a, b) => b.seq - a.seq);
  return { ...data, pages: [{ messages: merged, nextBeforeSeq: first?.nextBeforeSeq ?? null }, ...rest] };
}

/** Oldest first, for display. */
export function flattenMessages(data: MessagesData | undefined): MessageDto[] {
  return (data?.pages ?? []).flatMap((page) => page.messages).reverse();
}

export function heldSeqs(data: MessagesData | undefined): number[] {
  return (data?.pages ?? []).flatMap((page) => page.messages.map((message) => message.seq));
}
