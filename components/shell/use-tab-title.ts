"use client";

import { useEffect } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";

const COUNT = /^\(\d+\+?\) /;

/**
 * "(3) #general · Chorus": the open conversation, and how many messages wait unread overall.
 * Other pages keep their own title ("Settings · Chorus"), with the count in front.
 */
export function tabTitle(conversations: ConversationSummary[], pathname: string, pageTitle: string): string {
  const open = conversations.find((conversation) => pathname === `/c/${conversation.id}`);
  const unread = unreadCount(conversations);
  const name = open ? `${open.type === "group" ? "#" : ""}${open.title} · Chorus` : pageTitle.replace(COUNT, "") || "Chorus";
  return unread ? `(${unread}) ${name}` : name;
}

/** Messages waiting unread in every conversation not muted, as the tab shows it ("99+" past 99); empty for none. */
export function unreadCount(conversations: ConversationSummary[]): string {
  const unread = conversations.reduce((sum, conversation) => sum + (conversation.muted ? 0 : conversation.unread), 0);
  return unread > 99 ? "99+" : unread > 0 ? String(unread) : "";
}

/** The tab's icon with the unread count on it (app/icon.svg's colours), as a data URL; null for none. */
export function badgeIcon(count: string): string | null {
  if (!count) return null;
  const size = count.length > 2 ? 11 : count.length > 1 ? 14 : 18;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><circle cx="16" cy="16" r="15" fill="#b91c1c"/><text x="16" y="16" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="${size}" fill="#fff">${count}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}

/**
 * Keeps the tab's title as tabTitle says, also after Next writes a page's metadata title, and
 * its icon showing the unread count (Next's own icon back when nothing waits).
 */
export function useTabTitle(conversations: ConversationSummary[], pathname: string): void {
  useEffect(() => {
    const badge = badgeIcon(unreadCount(conversations));
    const apply = () => {
      const wanted = tabTitle(conversations, pathname, document.title);
      if (document.title !== wanted) document.title = wanted;
      for (const link of document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"]')) {
        link.dataset.plainHref ??= link.href;
        const href = badge ?? link.dataset.plainHref;
        if (link.href !== href) link.href = href;
      }
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [conversations, pathname]);
}
