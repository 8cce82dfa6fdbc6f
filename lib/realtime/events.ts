import type { SessionUser } from "@/lib/auth/session-user";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ErrorPayload } from "@/lib/errors/app-error";

/** Every acknowledgement is one of these, like server action results. */
export type Ack<T> = { data: T } | { error: ErrorPayload };
export type AckFn<T> = (result: Ack<T>) => void;

export interface SyncResult {
  messages: MessageDto[];
  /** False when more messages are missing than one answer carries: ask again from the last seq. */
  complete: boolean;
}

export interface ServerToClientEvents {
  "message:created": (message: MessageDto) => void;
}

/** Payloads arrive as `unknown`: each handler parses them with a zod schema first. */
export interface ClientToServerEvents {
  "conversation:join": (payload: unknown, ack: AckFn<{ conversationId: string }>) => void;
  "conversation:leave": (payload: unknown, ack: AckFn<{ conversationId: string }>) => void;
  "sync:since": (payload: unknown, ack: AckFn<SyncResult>) => void;
}

export type InterServerEvents = Record<string, never>;

export interface SocketData {
  user: SessionUser;
}

export const conversationRoom = (conversationId: string) => `conversation:${conversationId}`;
export const userRoom = (userId: string) => `user:${userId}`;
