import type { MessageStore } from "@/hooks/conversation-sync";
import type { MessageDto } from "@/lib/conversations/message-dto";

/** A ConversationSync store kept in a Map, as a client without React would keep it. */
export function memoryStore(initial: MessageDto[] = []): MessageStore & { held: Map<string, MessageDto> } {
  const held = new Map(initial.map((message) => [message.id, message]));
  return {
    held,
    add: (messages) => messages.forEach((message) => held.set(message.id, message)),
    seqs: () => [...held.values()].map((message) => message.seq),
  };
}
