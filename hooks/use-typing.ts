"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { TYPING_REFRESH_MS, type TypingEvent } from "@/lib/realtime/events";
import { applyTypingEvent, describeTypists, withoutExpired, type Typists } from "./typing-state";
import { getSocket, listenTo } from "./use-socket";

/** Stop announcing after this long without a keystroke. */
const IDLE_MS = 4_000;

/**
 * Who else is typing in this conversation, and the calls the composer makes while its user
 * types. Entries expire without a refresh, and vanish when that person's message arrives or
 * this socket disconnects.
 */
export function useTyping(conversationId: string, userId: string) {
  const [typists, setTypists] = useState<Typists>(() => new Map());
  const lastSent = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const socket = getSocket();
    const onTyping = (event: TypingEvent) => {
      if (event.conversationId === conversationId && event.actor.id !== userId) setTypists((current) => applyTypingEvent(current, event, Date.now()));
    };
    const onMessage = (message: MessageDto) => {
      if (message.conversationId !== conversationId || message.author.kind === "system") return;
      const authorId = message.author.id;
      setTypists((current) => (current.has(authorId) ? new Map([...current].filter(([id]) => id !== authorId)) : current));
    };
    const onDisconnect = () => setTypists(new Map());
    const sweep = setInterval(() => setTypists((current) => (current.size === 0 ? current : withoutExpired(current, Date.now()))), 1_000);
    const stopListening = listenTo(socket, { typing: onTyping, "message:created": onMessage, disconnect: onDisconnect });
    return () => {
      clearInterval(sweep);
      stopListening();
      setTypists(new Map());
    };
  }, [conversationId, userId]);

  const stopped = useCallback(() => {
    clearTimeout(idleTimer.current);
    if (lastSent.current === 0) return;
    lastSent.current = 0;
    getSocket().emit("typing:stop", { conversationId });
  }, [conversationId]);

  const typed = useCallback(() => {
    const now = Date.now();
    if (now - lastSent.current > TYPING_REFRESH_MS) {
      lastSent.current = now;
      getSocket().emit("typing:start", { conversationId });
    }
    clearTimeout(idleTimer.current);
    idleTimer.current = setTimeout(stopped, IDLE_MS);
  }, [conversationId, stopped]);

  useEffect(() => stopped, [stopped]);

  return { label: describeTypists([...typists.values()].map((entry) => entry.actor)), typed, stopped };
}
