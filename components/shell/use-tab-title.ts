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
  const unread = conversations.reduce((sum, conversation) => sum + conversation.unread, 0);
  const name = open ? `${open.type === "group" ? "#" : ""}${open.title} · Chorus` : pageTitle.replace(COUNT, "") || "Chorus";
  return unread > 0 ? `(${unread > 99 ? "99+" : unread}) ${name}` : name;
}

/** Keeps the tab's title as tabTitle says, also after Next writes a page's metadata title. */
export function useTabTitle(conversations: ConversationSummary[], pathname: string): void {
  useEffect(() => {
    const apply = () => {
      const wanted = tabTitle(conversations, pathname, document.title);
      if (document.title !== wanted) document.title = wanted;
    };
    apply();
    const observer = new MutationObserver(apply);
    observer.observe(document.head, { subtree: true, childList: true, characterData: true });
    return () => observer.disconnect();
  }, [conversations, pathname]);
}
