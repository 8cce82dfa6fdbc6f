import type { MessageStore } from "@/hooks/conversation-sync";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { newerCopy } from "@/hooks/message-cache";

/** A ConversationSync store kept in a Map, as a client without React would keep it. */
export function memoryStore(initial: MessageDto[] = [], watermark = 0): MessageStore & { held: Map<string, MessageDto> } {
  const held = new Map(initial.map((message) => [message.id, message]));
  return {
    held,
    add: (messages) => messages.forEach((message) => held.set(message.id, held.has(message.id) ? newerCopy(held.get(message.id)!, message) : message)),
    update: (messages) => messages.forEach((message) => held.has(message.id) && held.set(message.id, newerCopy(held.get(message.id)!, message))),
    seqs: () => [...held.values()].map((message) => message.seq),
    changeWatermark: () => watermark,
  };
}
