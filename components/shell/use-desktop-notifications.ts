"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { noticeFor, noticeUrl } from "@/lib/notifications/notice";
import { activityOf } from "@/lib/realtime/conversation-activity";
import type { ConversationActivity, MessageMeta } from "@/lib/realtime/events";
import { getSocket, listenTo } from "@/hooks/use-socket";

/**
 * Desktop notifications (the browser's Notification API) for what noticeFor says, only while
 * this tab is hidden and only once the person allowed them (Settings asks, never a page load).
 * Every tab of the person hears the message; one notice per conversation (its tag) replaces the
 * last, a push for the same message (Chorus closed elsewhere) included.
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
        router.push(noticeUrl(activity));
        shown.close();
      };
    };
    return listenTo(getSocket(), {
      "conversation:activity": tell,
      "message:created": (message: MessageDto, meta?: MessageMeta) => tell(activityOf(message, meta)),
    });
  }, [me, router]);
}
