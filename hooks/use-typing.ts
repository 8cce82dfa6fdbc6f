"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { TYPING_REFRESH_MS, type TypingEvent } from "@/lib/realtime/events";
import { applyTypingEvent, typistsLabel, withoutExpired, type Typists } from "./typing-state";
import { getSocket, listenTo } from "./use-socket";

/** Stop announcing after this long without a keystroke. */
const IDLE_MS = 4_000;

/**
 * Who else is typing in this conversation, and the calls the composer makes while its user
 * types. Entries expire without a refresh, and vanish when that person's message arrives or
 * this socket disconnects. The entries are kept outside React and only what the line says is
 * state: a refresh (an agent's every 3 s while it streams) or a sweep that finds nothing expired
 * does not render the conversation again.
 */
export function useTyping(conversationId: string, userId: string) {
  const typists = useRef<Typists>(new Map());
  const [label, setLabel] = useState<string | null>(null);
  const lastSent = useRef(0);
  const idleTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    const socket = getSocket();
    const update = (next: Typists) => {
      typists.current = next;
      setLabel(typistsLabel(next));
    };
    const onTyping = (event: TypingEvent) => {
      if (event.conversationId === conversationId && event.actor.id !== userId) update(applyTypingEvent(typists.current, event, Date.now()));
    };
    const onMessage = (message: MessageDto) => {
      if (message.conversationId !== conversationId || message.author.kind === "system") return;
      const authorId = message.author.id;
      if (typists.current.has(authorId)) update(new Map([...typists.current].filter(([id]) => id !== authorId)));
    };
    const onDisconnect = () => update(new Map());
    const sweep = setInterval(() => update(withoutExpired(typists.current, Date.now())), 1_000);
    const stopListening = listenTo(socket, { typing: onTyping, "message:created": onMessage, disconnect: onDisconnect });
    return () => {
      clearInterval(sweep);
      stopListening();
      update(new Map());
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

  return { label, typed, stopped };
}
