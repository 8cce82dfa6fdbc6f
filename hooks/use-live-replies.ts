"use client";

import { useEffect, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageDelta } from "@/lib/realtime/events";
import { getSocket, listenTo } from "./use-socket";

export interface LiveReply {
  dispatchId: string;
  /** The message being answered: its author may stop the reply. */
  replyToMessageId: string;
  agent: MessageDelta["agent"];
  text: string;
}

/**
 * Agents' replies while they stream: pieces gathered per dispatch in index order, replaced by
 * the persisted message when it arrives.
 */
export function useLiveReplies(conversationId: string) {
  const [replies, setReplies] = useState<Map<string, { agent: MessageDelta["agent"]; replyToMessageId: string; attempt: number; pieces: string[] }>>(() => new Map());

  useEffect(() => {
    const socket = getSocket();
    const onDelta = (delta: MessageDelta) => {
      if (delta.conversationId !== conversationId) return;
      setReplies((current) => {
        const next = new Map(current);
        const entry = next.get(delta.dispatchId) ?? { agent: delta.agent, replyToMessageId: delta.replyToMessageId, attempt: delta.attempt, pieces: [] };
        // A piece of an earlier attempt arriving late is stale: another node answers now.
        if (delta.attempt < entry.attempt) return current;
        // A new attempt (its node shut down or stalled), or a first piece again: it starts over.
        const pieces = delta.attempt > entry.attempt || delta.index === 0 ? [] : [...entry.pieces];
        pieces[delta.index] = delta.text;
        next.set(delta.dispatchId, { ...entry, attempt: delta.attempt, pieces });
        return next;
      });
    };
    const onMessage = (message: MessageDto) => {
      const dispatchId = message.metadata.dispatchId;
      if (!dispatchId) return;
      setReplies((current) => {
        if (!current.has(dispatchId)) return current;
        const next = new Map(current);
        next.delete(dispatchId);
        return next;
      });
    };
    // A reply that finished while we were away arrives as a message through catch-up.
    const onDisconnect = () => setReplies(new Map());
    // A regenerated reply arrives as the reply's new version.
    return listenTo(socket, { "message:delta": onDelta, "message:created": onMessage, "message:updated": onMessage, disconnect: onDisconnect });
  }, [conversationId]);

  const stop = (dispatchId: string) => getSocket().emit("agent:stop", { dispatchId }, () => undefined);
  const live: LiveReply[] = [...replies].map(([dispatchId, entry]) => ({ dispatchId, replyToMessageId: entry.replyToMessageId, agent: entry.agent, text: entry.pieces.join("") }));
  return { live, stop };
}
