import type { MessageDto } from "@/lib/conversations/message-dto";

/** How domain code announces changes; server.ts supplies the Socket.IO implementation. */
export interface RealtimePublisher {
  messageCreated(message: MessageDto): void;
  /** For /api/health: whether live updates are being served, and to how many sockets here. */
  status(): { state: "up" | "down"; connections: number };
}

/** Before Socket.IO is attached (scripts, tests without sockets) nothing is announced. */
export const noopPublisher: RealtimePublisher = {
  messageCreated: () => undefined,
  status: () => ({ state: "down", connections: 0 }),
};
