import webpush from "web-push";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { defaultNotifyLevel, NOTIFY_LEVELS } from "@/lib/conversations/notification-level";
import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { activityOf } from "@/lib/realtime/conversation-activity";
import type { MessageAudience, RealtimePublisher } from "@/lib/realtime/publisher";
import { noticeFor, noticeUrl, type NoticeConversation } from "./notice";
import type { VapidKeys } from "./vapid-keys";

/** A push not delivered within a day is dropped by the push service: by then it is old news. */
export const PUSH_TTL_S = 24 * 60 * 60;
const SEND_TIMEOUT_MS = 10_000;

export interface PushNotifier {
  /** Sends what a new message tells each participant's subscribed browsers; never waits, never throws. */
  messageCreated(message: MessageDto, audience: MessageAudience): void;
  /** Resolves once the sends under way have ended (tests, shutdown). */
  settled(): Promise<void>;
}

interface Row {
  id: string;
  userId: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  type: NoticeConversation["type"];
  title: string;
  notify: string | null;
  muted: boolean;
}

/**
 * Web Push for a new message, after its commit: each participant with a subscribed browser gets
 * what a hidden tab would show (noticeFor: a mention, an agent's answer to their question, any
 * message where they chose every message; never their own, nothing when muted). Pushed whether or
 * not they have Chorus open (knowing that takes every node's sockets): the service worker shows
 * nothing while a Chorus tab is visible, and a hidden tab's own notice has the same tag, so one
 * replaces the other. A subscription the push service says is gone (404, 410) is deleted.
 */
export function createPushNotifier({ prisma, keys }: { prisma: Prisma; keys: VapidKeys }): PushNotifier {
  const inFlight = new Set<Promise<void>>();
  return {
    messageCreated(message, audience) {
      if (audience.participantUserIds.length === 0) return;
      const task = notify(prisma, keys, message, audience).catch((error: unknown) => log.warn("push notifications not sent", { messageId: message.id, error }));
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    },
    settled: async () => void (await Promise.allSettled([...inFlight])),
  };
}

/** The publisher, with every new message also pushed. */
export function withWebPush(publisher: RealtimePublisher, push: PushNotifier): RealtimePublisher {
  return {
    ...publisher,
    messageCreated(message, audience) {
      publisher.messageCreated(message, audience);
      push.messageCreated(message, audience);
    },
  };
}

async function notify(prisma: Prisma, keys: VapidKeys, message: MessageDto, audience: MessageAudience): Promise<void> {
  // The subscriptions of the conversation's participants, with each one's choice for it (a fork has none).
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT s."id", s."userId", s."endpoint", s."p256dh", s."auth", c."type"::text AS "type", c."title", p."notify", p."muted"
    FROM "participants" p
    JOIN "conversations" c ON c."id" = p."conversationId"
    JOIN "push_subscriptions" s ON s."userId" = p."userId"
    JOIN "users" u ON u."id" = p."userId" AND u."deletedAt" IS NULL AND u."deactivatedAt" IS NULL
    WHERE p."conversationId" = ${message.conversationId}`;
  const activity = activityOf(message, audience);
  const sends = rows.flatMap((row) => {
    const notify = NOTIFY_LEVELS.find((level) => level === row.notify) ?? defaultNotifyLevel(row.type);
    const notice = noticeFor(activity, { me: row.userId, conversation: { id: message.conversationId, type: row.type, title: row.title, notify, muted: row.muted } });
    return notice ? [send(prisma, keys, row, { ...notice, url: noticeUrl(activity) }, message.conversationId)] : [];
  });
  await Promise.all(sends);
}

/** One encrypted push (web-push encrypts and signs; the request is ours, so it has a timeout and follows no redirect). */
async function send(prisma: Prisma, keys: VapidKeys, row: Row, payload: object, conversationId: string): Promise<void> {
  const request = webpush.generateRequestDetails({ endpoint: row.endpoint, keys: { p256dh: row.p256dh, auth: row.auth } }, JSON.stringify(payload), {
    vapidDetails: keys,
    TTL: PUSH_TTL_S,
    // A newer push for the same conversation replaces one still waiting at the push service.
    topic: conversationId.replaceAll("-", ""),
  });
  try {
    const response = await fetch(request.endpoint, {
      method: request.method,
      headers: request.headers as Record<string, string>,
      body: request.body ? new Uint8Array(request.body) : null,
      redirect: "manual",
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (response.status === 404 || response.status === 410) {
      await prisma.pushSubscription.deleteMany({ where: { id: row.id, endpoint: row.endpoint } });
      log.info("push subscription gone: deleted", { userId: row.userId, status: response.status });
    } else if (!response.ok) {
      log.warn("push refused by the push service", { userId: row.userId, status: response.status, host: new URL(row.endpoint).host });
    }
  } catch (error) {
    log.warn("push not delivered", { userId: row.userId, host: new URL(row.endpoint).host, error });
  }
}
