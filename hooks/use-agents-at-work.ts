"use client";

import { useEffect, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { TypingEvent } from "@/lib/realtime/events";
import { applyTypingEvent, describeTypists, withoutExpired, type Typists } from "./typing-state";
import { getSocket, listenTo } from "./use-socket";

/**
 * Which agents are working in which conversations, for the sidebar ("Toby is thinking…"):
 * agents announce their work to every participant's sockets, not only to the open room.
 */
export function useAgentsAtWork(): (conversationId: string) => string | null {
  const [working, setWorking] = useState<Map<string, Typists>>(() => new Map());

  useEffect(() => {
    const socket = getSocket();
    const update = (conversationId: string, change: (typists: Typists) => Typists) =>
      setWorking((current) => {
        const next = new Map(current);
        const typists = change(current.get(conversationId) ?? new Map());
        if (typists.size > 0) next.set(conversationId, typists);
        else next.delete(conversationId);
        return next;
      });
    const onTyping = (event: TypingEvent) => {
      if (event.actor.kind === "agent") update(event.conversationId, (typists) => applyTypingEvent(typists, event, Date.now()));
    };
    const onMessage = (message: MessageDto) => {
      if (message.author.kind !== "agent") return;
      const agentId = message.author.id;
      update(message.conversationId, (typists) => new Map([...typists].filter(([id]) => id !== agentId)));
    };
    const onDisconnect = () => setWorking(new Map());
    const sweep = setInterval(
      () => setWorking((current) => (current.size === 0 ? current : new Map([...current].map(([id, typists]) => [id, withoutExpired(typists, Date.now())] as const).filter(([, typists]) => typists.size > 0)))),
      1_000,
    );
    const stopListening = listenTo(socket, { typing: onTyping, "message:created": onMessage, disconnect: onDisconnect });
    return () => {
      clearInterval(sweep);
      stopListening();
    };
  }, []);

  return (conversationId) => {
    const typists = working.get(conversationId);
    return typists ? describeTypists([...typists.values()].map((entry) => entry.actor)) : null;
  };
}
