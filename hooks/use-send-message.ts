"use client";

import { useCallback, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ErrorPayload } from "@/lib/errors/app-error";
import { newClientId } from "./client-id";

export type PostMessageAction = (input: {
  conversationId: string;
  clientId: string;
  content: string;
  replyToMessageId?: string;
  attachmentIds?: string[];
}) => Promise<{ data: { message: MessageDto; unknownMentions: string[] } } | { error: ErrorPayload }>;

export interface Refusal {
  content: string;
  reason: string;
  /** When it happened: the same text refused twice is still news. */
  at: number;
}

/** What is sent besides the text. */
interface SendOptions {
  replyToMessageId?: string;
  attachmentIds?: string[];
}

export interface PendingMessage extends SendOptions {
  clientId: string;
  content: string;
  status: "sending" | "failed";
  error?: string;
}

/**
 * Optimistic sending: the message shows at once as pending; a failure keeps it with a Retry
 * that resends the same clientId, so a send that did reach the server is never doubled.
 */
export function useSendMessage(conversationId: string, postMessage: PostMessageAction, received: (messages: MessageDto[]) => void) {
  const [pending, setPending] = useState<PendingMessage[]>([]);
  /** @handles in the last sent message that matched nobody here. */
  const [unknownMentions, setUnknownMentions] = useState<string[]>([]);
  /** A message the server refused as asked (e.g. a panel of one agent): back in the composer with the reason. */
  const [refusal, setRefusal] = useState<Refusal | null>(null);

  const update = (clientId: string, change: Partial<PendingMessage> | null) =>
    setPending((list) =>
      change === null ? list.filter((item) => item.clientId !== clientId) : list.map((item) => (item.clientId === clientId ? { ...item, ...change } : item)),
    );

  const deliver = useCallback(
    async (clientId: string, content: string, { replyToMessageId, attachmentIds }: SendOptions) => {
      try {
        const result = await postMessage({ conversationId, clientId, content, ...(replyToMessageId ? { replyToMessageId } : {}), ...(attachmentIds?.length ? { attachmentIds } : {}) });
        if ("error" in result && result.error.code === "bad_request") {
          update(clientId, null);
          return setRefusal({ content, reason: result.error.message, at: Date.now() });
        }
        if ("error" in result) return update(clientId, { status: "failed", error: result.error.message });
        received([result.data.message]);
        setUnknownMentions(result.data.unknownMentions);
        update(clientId, null);
      } catch {
        update(clientId, { status: "failed", error: "Not sent: the connection failed." });
      }
    },
    [conversationId, postMessage, received],
  );

  const send = useCallback(
    (content: string, options: SendOptions = {}) => {
      const clientId = newClientId();
      setRefusal(null);
      setPending((list) => [...list, { clientId, content, status: "sending", ...options }]);
      void deliver(clientId, content, options);
    },
    [deliver],
  );

  const retry = useCallback(
    (clientId: string) => {
      const item = pending.find((candidate) => candidate.clientId === clientId);
      if (!item) return;
      update(clientId, { status: "sending", error: undefined });
      void deliver(clientId, item.content, item);
    },
    [deliver, pending],
  );

  const discard = useCallback((clientId: string) => update(clientId, null), []);

  return { pending, send, retry, discard, unknownMentions, refusal };
}
