"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import type { MessageDelta } from "@/lib/realtime/events";
import { noQueuedTurns, withAnnouncedTurn, withListedTurns, withStartedTurn } from "./queued-turns-state";
import { getSocket, listenTo } from "./use-socket";

/** Places in line are not pushed as the queue moves: while a turn waits, they are read again this often. */
const REFRESH_MS = 3_000;

/**
 * The open conversation's agent turns that have not started ("Toby is queued (2 ahead)"):
 * announced by the server, read again on every (re)connect and while any waits, and dropped the
 * moment their reply streams or arrives.
 */
export function useQueuedTurns(conversationId: string): QueuedTurn[] {
  const [state, setState] = useState(noQueuedTurns);
  // Only the answer to the latest request counts: an older one may have been read before a turn moved.
  const latestRequest = useRef(0);
  const waiting = state.turns.length > 0;

  const readList = useCallback(() => {
    const request = ++latestRequest.current;
    getSocket().emit("turns:queued", { conversationId }, (ack) => {
      if (request === latestRequest.current && "data" in ack) setState((current) => withListedTurns(current, ack.data));
    });
  }, [conversationId]);

  useEffect(() => {
    const socket = getSocket();
    const onStarted = (of: string, dispatchId: string | undefined) => {
      if (of === conversationId && dispatchId) setState((current) => withStartedTurn(current, dispatchId));
    };
    const stopListening = listenTo(socket, {
      "turn:queued": (turn: QueuedTurn) => {
        if (turn.conversationId === conversationId) setState((current) => withAnnouncedTurn(current, turn));
      },
      "message:delta": (delta: MessageDelta) => onStarted(delta.conversationId, delta.dispatchId),
      "message:created": (message: MessageDto) => onStarted(message.conversationId, message.metadata.dispatchId),
      // A regenerated reply arrives as the reply's new version.
      "message:updated": (message: MessageDto) => onStarted(message.conversationId, message.metadata.dispatchId),
      connect: readList,
      // Whatever changed while away is read again on reconnect; until then nothing can be stopped.
      disconnect: () => setState(noQueuedTurns),
    });
    if (socket.connected) readList();
    return stopListening;
  }, [conversationId, readList]);

  useEffect(() => {
    if (!waiting) return;
    const refresh = setInterval(readList, REFRESH_MS);
    return () => clearInterval(refresh);
  }, [waiting, readList]);

  return state.turns;
}
