"use client";

import { useEffect, useRef, useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { TypingEvent } from "@/lib/realtime/events";
import { applyTypingEvent, typistsLabel, withoutExpired, type Typists } from "./typing-state";
import { getSocket, listenTo } from "./use-socket";

/**
 * Which agents are working in which conversations, for the sidebar ("Toby is thinking…"):
 * agents announce their work to every participant's sockets, not only to the open room. As in
 * useTyping, the entries are kept outside React and only what each line says is state, so an
 * agent's refresh every 3 s and the sweep every second render the sidebar again only when a
 * line changes.
 */
export function useAgentsAtWork(): (conversationId: string) => string | null {
  const working = useRef(new Map<string, Typists>());
  const [labels, setLabels] = useState<ReadonlyMap<string, string>>(() => new Map());

  useEffect(() => {
    const socket = getSocket();
    const publish = () => {
      const next = new Map([...working.current].flatMap(([conversationId, typists]) => (typists.size > 0 ? [[conversationId, typistsLabel(typists)!] as const] : [])));
      setLabels((current) => (next.size === current.size && [...next].every(([conversationId, label]) => current.get(conversationId) === label) ? current : next));
    };
    const update = (conversationId: string, change: (typists: Typists) => Typists) => {
      const typists = change(working.current.get(conversationId) ?? new Map());
      if (typists.size > 0) working.current.set(conversationId, typists);
      else working.current.delete(conversationId);
      publish();
    };
    const onTyping = (event: TypingEvent) => {
      if (event.actor.kind === "agent") update(event.conversationId, (typists) => applyTypingEvent(typists, event, Date.now()));
    };
    const onMessage = (message: MessageDto) => {
      if (message.author.kind !== "agent") return;
      const agentId = message.author.id;
      update(message.conversationId, (typists) => new Map([...typists].filter(([id]) => id !== agentId)));
    };
    const onDisconnect = () => {
      working.current.clear();
      publish();
    };
    const sweep = setInterval(() => {
      for (const conversationId of [...working.current.keys()]) update(conversationId, (typists) => withoutExpired(typists, Date.now()));
    }, 1_000);
    const stopListening = listenTo(socket, { typing: onTyping, "message:created": onMessage, disconnect: onDisconnect });
    return () => {
      clearInterval(sweep);
      stopListening();
    };
  }, []);

  return (conversationId) => labels.get(conversationId) ?? null;
}
