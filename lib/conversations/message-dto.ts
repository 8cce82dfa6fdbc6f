import { toAttachmentDto, type AttachmentDto, type AttachmentRow } from "@/lib/attachments/attachment-dto";
import { avatarOf, type PersonAvatar } from "@/lib/avatars/avatar-rules";
import type { MessageMetadata } from "./message-metadata";

export type MessageAuthor =
  | ({ kind: "user"; id: string; name: string } & PersonAvatar)
  | { kind: "agent"; id: string; handle: string; displayName: string; color: string }
  | { kind: "system" };

/** The message a reply quotes, as it is now (a deleted one keeps no text). */
export interface QuotedMessage {
  id: string;
  seq: number;
  authorName: string;
  /** The start of its text; empty when it was deleted. */
  excerpt: string;
  deleted: boolean;
}

/** One emoji on a message: who reacted with it, in the order they did. */
export interface ReactionSummary {
  emoji: string;
  users: { id: string; name: string }[];
}

/** A message as every client sees it, over HTTP and Socket.IO alike. */
export interface MessageDto {
  id: string;
  conversationId: string;
  seq: number;
  clientId: string | null;
  role: "user" | "assistant" | "system" | "tool";
  /** Empty for a deleted message (its tombstone). */
  content: string;
  metadata: MessageMetadata;
  author: MessageAuthor;
  createdAt: string;
  /**
   * The conversation's change number of this message's latest edit, deletion, reaction or version
   * switch (0: never changed). A client keeps the copy with the highest one.
   */
  changeSeq: number;
  editedAt: string | null;
  /** A tombstone: when, and whether an admin (not the author) deleted it. */
  deleted: { at: string; byAdmin: boolean } | null;
  /** Which version is shown, of how many (edits, resends, regenerated replies). */
  version: number;
  versionCount: number;
  replyTo: QuotedMessage | null;
  reactions: ReactionSummary[];
  /** Files sent with it, in the order attached (none on a tombstone). */
  attachments: AttachmentDto[];
}

/** What a message just written has: no changes, reactions or versions yet. */
export const unchangedMessage = {
  changeSeq: 0,
  editedAt: null,
  deleted: null,
  version: 1,
  versionCount: 1,
  replyTo: null,
  reactions: [],
  attachments: [],
} as const satisfies Partial<MessageDto>;

export const QUOTE_EXCERPT_CHARS = 160;

const authorSelect = {
  authorUser: { select: { id: true, name: true, image: true, avatarColor: true } },
  authorAgent: { select: { id: true, handle: true, displayName: true, color: true } },
} as const;

export const messageInclude = {
  ...authorSelect,
  replyTo: { select: { id: true, seq: true, content: true, deletedAt: true, ...authorSelect } },
  reactions: { select: { emoji: true, user: { select: { id: true, name: true } } }, orderBy: { createdAt: "asc" } },
  attachments: { select: { id: true, name: true, mediaType: true, bytes: true, width: true, height: true, thumbnailKey: true }, orderBy: { position: "asc" } },
} as const;

type AuthorRow = {
  authorUser: { id: string; name: string; image: string | null; avatarColor: string | null } | null;
  authorAgent: { id: string; handle: string; displayName: string; color: string } | null;
};

interface MessageRow extends AuthorRow {
  id: string;
  conversationId: string;
  seq: number;
  clientId: string | null;
  role: MessageDto["role"];
  content: string;
  metadata: unknown;
  createdAt: Date;
  changeSeq: number;
  editedAt: Date | null;
  deletedAt: Date | null;
  deletedByUserId: string | null;
  authorUserId: string | null;
  version: number;
  versionCount: number;
  replyTo: (AuthorRow & { id: string; seq: number; content: string; deletedAt: Date | null }) | null;
  reactions: { emoji: string; user: { id: string; name: string } }[];
  attachments: AttachmentRow[];
}

function authorOf(row: AuthorRow): MessageAuthor {
  if (row.authorUser) return { kind: "user", id: row.authorUser.id, name: row.authorUser.name, ...avatarOf(row.authorUser) };
  return row.authorAgent ? { kind: "agent", ...row.authorAgent } : { kind: "system" };
}

export function authorName(author: MessageAuthor): string {
  return author.kind === "user" ? author.name : author.kind === "agent" ? author.displayName : "Chorus";
}

/** The quote of a reply: who wrote the original and how it starts. */
export function quoteOf(row: NonNullable<MessageRow["replyTo"]>): QuotedMessage {
  const deleted = row.deletedAt !== null;
  return { id: row.id, seq: row.seq, authorName: authorName(authorOf(row)), excerpt: deleted ? "" : row.content.slice(0, QUOTE_EXCERPT_CHARS), deleted };
}

/** Reactions grouped by emoji, in the order each emoji first appeared. */
export function groupReactions(rows: { emoji: string; user: { id: string; name: string } }[]): ReactionSummary[] {
  const byEmoji = new Map<string, ReactionSummary>();
  for (const { emoji, user } of rows) {
    const summary = byEmoji.get(emoji) ?? { emoji, users: [] };
    summary.users.push(user);
    byEmoji.set(emoji, summary);
  }
  return [...byEmoji.values()];
}

export function toMessageDto(row: MessageRow): MessageDto {
  return {
    id: row.id,
    conversationId: row.conversationId,
    seq: row.seq,
    clientId: row.clientId,
    role: row.role,
    content: row.content,
    metadata: row.metadata as MessageMetadata,
    author: authorOf(row),
    createdAt: row.createdAt.toISOString(),
    changeSeq: row.changeSeq,
    editedAt: row.editedAt?.toISOString() ?? null,
    deleted: row.deletedAt ? { at: row.deletedAt.toISOString(), byAdmin: row.deletedByUserId !== row.authorUserId } : null,
    version: row.version,
    versionCount: row.versionCount,
    replyTo: row.replyTo ? quoteOf(row.replyTo) : null,
    reactions: groupReactions(row.reactions),
    attachments: row.deletedAt ? [] : row.attachments.map(toAttachmentDto),
  };
}
