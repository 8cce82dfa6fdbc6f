import type { InfiniteData } from "@tanstack/react-query";
import { QUOTE_EXCERPT_CHARS, type MessageDto } from "@/lib/conversations/message-dto";
import type { MessagePage } from "@/lib/conversations/list-messages";

export type MessagesData = InfiniteData<MessagePage>;

/** The copy to keep of a message seen twice: the one with the later change. */
export function newerCopy(held: MessageDto, incoming: MessageDto): MessageDto {
  return incoming.changeSeq > held.changeSeq ? incoming : held;
}

/**
 * Merges messages that arrived live (socket, send result, reconnect catch-up) into the cached
 * pages: each id appears once, a changed message replaces an older copy wherever it is held,
 * the newest page stays ordered newest first.
 */
export function mergeMessages(data: MessagesData | undefined, incoming: MessageDto[]): MessagesData | undefined {
  if (!data || incoming.length === 0) return data;
  const known = new Map(data.pages.flatMap((page) => page.messages.map((message) => [message.id, message] as const)));
  const fresh = incoming.filter((message) => !known.has(message.id));
  const changed = new Map(incoming.filter((message) => known.has(message.id) && newerCopy(known.get(message.id)!, message) === message).map((message) => [message.id, message]));
  if (fresh.length === 0 && changed.size === 0) return data;
  const pages = changed.size === 0 ? data.pages : data.pages.map((page) => ({ ...page, messages: page.messages.map((message) => changed.get(message.id) ?? message) }));
  if (fresh.length === 0) return { ...data, pages };
  const [first, ...rest] = pages;
  const merged = [...fresh, ...(first?.messages ?? [])].sort((a, b) => b.seq - a.seq);
  return { ...data, pages: [{ nextBeforeSeq: null, lastChangeSeq: 0, ...first, messages: merged }, ...rest] };
}

/**
 * Adds an older page below the pages held, if it is still the one asked for (the oldest page
 * held still continues before `beforeSeq`). Applied to the cache as it is when the page arrives,
 * not as it was when it was asked for: what arrived live meanwhile stays (TanStack Query's
 * fetchNextPage writes back the pages it started from, and dropped them).
 */
export function withOlderPage(data: MessagesData | undefined, beforeSeq: number, page: MessagePage): MessagesData | undefined {
  if (!data || data.pages.at(-1)?.nextBeforeSeq !== beforeSeq) return data;
  const held = new Set(data.pages.flatMap((each) => each.messages.map((message) => message.id)));
  return { pages: [...data.pages, { ...page, messages: page.messages.filter((message) => !held.has(message.id)) }], pageParams: [...data.pageParams, beforeSeq] };
}

/**
 * Newer copies of messages held; a message not held is not added (it belongs to a page not
 * loaded). Replies held that quote a changed message show its new start, or that it was deleted.
 */
export function updateMessages(data: MessagesData | undefined, incoming: MessageDto[]): MessagesData | undefined {
  if (!data) return data;
  const held = data.pages.flatMap((page) => page.messages);
  const ids = new Set(held.map((message) => message.id));
  const quoted = new Map(incoming.map((message) => [message.id, message]));
  const requoted = held.flatMap((message) => {
    const source = message.replyTo && quoted.get(message.replyTo.id);
    if (!source) return [];
    const replyTo = { ...message.replyTo!, deleted: source.deleted !== null, excerpt: source.deleted ? "" : source.content.slice(0, QUOTE_EXCERPT_CHARS) };
    return replyTo.excerpt === message.replyTo!.excerpt && replyTo.deleted === message.replyTo!.deleted ? [] : [{ ...message, replyTo }];
  });
  const merged = mergeMessages(data, incoming.filter((message) => ids.has(message.id)));
  // A quote is not a change of the reply: it replaces the copy held whatever its change number.
  if (requoted.length === 0 || !merged) return merged;
  const byId = new Map(requoted.map((message) => [message.id, message.replyTo]));
  return { ...merged, pages: merged.pages.map((page) => ({ ...page, messages: page.messages.map((message) => (byId.has(message.id) ? { ...message, replyTo: byId.get(message.id)! } : message)) })) };
}

/** Oldest first, for display. */
export function flattenMessages(data: MessagesData | undefined): MessageDto[] {
  return (data?.pages ?? []).flatMap((page) => page.messages).reverse();
}

export function heldSeqs(data: MessagesData | undefined): number[] {
  return (data?.pages ?? []).flatMap((page) => page.messages.map((message) => message.seq));
}

/** Changes up to here are in every page held: catch-up asks for those after it. */
export function changeWatermark(data: MessagesData | undefined): number {
  const pages = data?.pages ?? [];
  return pages.length === 0 ? 0 : Math.min(...pages.map((page) => page.lastChangeSeq));
}
