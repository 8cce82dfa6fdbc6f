import type { MessageMetadata } from "./message-metadata";

export type MessageAuthor =
  | { kind: "user"; id: string; name: string }
  | { kind: "agent"; id: string; handle: string; displayName: string; color: string }
  | { kind: "system" };

/** A message as every client sees it, over HTTP and Socket.IO alike. */
export interface MessageDto {
  id: string;
  conversationId: string;
  seq: number;
  clientId: string | null;
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  metadata: MessageMetadata;
  author: MessageAuthor;
  createdAt: string;
}

export const messageInclude = {
  authorUser: { select: { id: true, name: true } },
  authorAgent: { select: { id: true, handle: true, displayName: true, color: true } },
} as const;

interface MessageRow {
  id: string;
  conversationId: string;
  seq: number;
  clientId: string | null;
  role: MessageDto["role"];
  content: string;
  metadata: unknown;
  createdAt: Date;
  authorUser: { id: string; name: string } | null;
  authorAgent: { id: string; handle: string; displayName: string; color: string } | null;
}

export function toMessageDto(row: MessageRow): MessageDto {
  const author: MessageAuthor = row.authorUser
    ? { kind: "user", ...row.authorUser }
    : row.authorAgent
      ? { kind: "agent", ...row.authorAgent }
      : { kind: "system" };
  return {
    id: row.id,
    conversationId: row.conversationId,
    seq: row.seq,
    clientId: row.clientId,
    role: row.role,
    content: row.content,
    metadata: row.metadata as MessageMetadata,
    author,
    createdAt: row.createdAt.toISOString(),
  };
}
