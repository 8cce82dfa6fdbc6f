"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { activityOf } from "@/lib/realtime/conversation-activity";
import type { ConversationActivity, MessageMeta } from "@/lib/realtime/events";
import { getSocket, listenTo } from "@/hooks/use-socket";

export interface DesktopNotice {
  title: string;
  body: string;
  /** One notice per conversation: a newer one replaces it. */
  tag: string;
}

/**
 * What a new message tells the person while their tab is hidden, as they chose for the
 * conversation (notify, muted): with "mentions", a mention of them; with "all", any message of
 * someone else. Their own messages tell nothing, nor does a muted conversation.
 */
export function noticeFor(activity: ConversationActivity, { me, conversation }: { me: string; conversation: ConversationSummary | undefined }): DesktopNotice | null {
  if (!conversation || activity.authorUserId === me || conversation.muted || conversation.notify === "nothing") return null;
  const mentioned = activity.mentionedUserIds.includes(me);
  if (!mentioned && conversation.notify !== "all") return null;
  const where = conversation.type === "group" ? ` in #${conversation.title}` : "";
  const title = mentioned
    ? `${activity.authorName} mentioned you${where}`
    : conversation.type === "group"
      ? `${activity.authorName}${where}`
      : activity.authorUserId === null
        ? `${activity.authorName} answered you`
        : `${activity.authorName} sent you a message`;
  return { title, body: activity.preview || "(no text)", tag: `chorus:${conversation.id}` };
}

/**
 * Desktop notifications (the browser's Notification API) for what noticeFor says, only while
 * this tab is hidden and only once the person allowed them (Settings asks, never a page load).
 * Every tab of the person hears the message; one notice per conversation (its tag) replaces the last.
 */
export function useDesktopNotifications(me: string, conversations: ConversationSummary[]): void {
  const router = useRouter();
  const known = useRef(conversations);
  useEffect(() => {
    known.current = conversations;
  }, [conversations]);

  useEffect(() => {
    if (typeof Notification === "undefined") return;
    const tell = (activity: ConversationActivity) => {
      if (document.visibilityState !== "hidden" || Notification.permission !== "granted") return;
      const notice = noticeFor(activity, { me, conversation: known.current.find((each) => each.id === activity.conversationId) });
      if (!notice) return;
      const shown = new Notification(notice.title, { body: notice.body, tag: notice.tag });
      shown.onclick = () => {
        window.focus();
        router.push(`/c/${activity.conversationId}?at=${activity.seq}`);
        shown.close();
      };
    };
    return listenTo(getSocket(), {
      "conversation:activity": tell,
      "message:created": (message: MessageDto, meta?: MessageMeta) => tell(activityOf(message, meta?.mentionedUserIds ?? [])),
    });
  }, [me, router]);
}
