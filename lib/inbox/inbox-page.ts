import { z } from "zod";

export const INBOX_PAGE_SIZE = 20;

/** One message in a person's "Mentions and replies". */
export interface InboxItem {
  id: string;
  conversationId: string;
  /** As the sidebar names it: the channel, or the other party of a direct message. */
  conversationTitle: string;
  seq: number;
  /** mention: it @mentions the person; answer: an agent's answer to their question (in a channel). */
  kind: "mention" | "answer";
  /** Null when the author's account or agent no longer exists. */
  author: { kind: "user" | "agent"; id: string; name: string } | null;
  createdAt: string;
  preview: string;
  /** After the person's read position in that conversation. */
  unread: boolean;
}

export interface InboxPage {
  /** Newest first. */
  items: InboxItem[];
  /** Pass as `cursor` for the next (older) page; null on the last. */
  nextCursor: string | null;
}

/** Where a page starts: just older than this message (its time, then its id). */
export interface InboxCursor {
  createdAt: Date;
  id: string;
}

export function encodeCursor({ createdAt, id }: InboxCursor): string {
  return `${createdAt.toISOString()}_${id}`;
}

const cursorText = z
  .string()
  .regex(/^[^_]+_[^_]+$/, { error: "cursor must be the nextCursor of the previous page." })
  .transform((value) => {
    const [at, id] = value.split("_") as [string, string];
    return { createdAt: new Date(at), id };
  })
  .pipe(z.object({ createdAt: z.date({ error: "cursor must be the nextCursor of the previous page." }), id: z.uuid({ error: "cursor must be the nextCursor of the previous page." }) }));

/** `GET /api/inbox?cursor=`: the first page without one. */
export const inboxQuerySchema = z.object({ cursor: cursorText.optional() });
