import type { Prisma } from "@/lib/db/open-database";
import { empty, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { previewOf } from "@/lib/realtime/conversation-activity";
import { encodeCursor, INBOX_PAGE_SIZE, type InboxCursor, type InboxItem, type InboxPage } from "./inbox-page";

interface Row {
  id: string;
  conversationId: string;
  type: string;
  title: string;
  peerName: string | null;
  seq: number;
  mentioned: boolean;
  authorKind: "user" | "agent" | null;
  authorId: string | null;
  authorName: string | null;
  createdAt: Date;
  content: string;
  unread: boolean;
}

/**
 * A person's "Mentions and replies", newest first, one page per statement: the messages that
 * @mention them, and agents' answers to their questions in channels (in an agent chat every
 * message answers them: the chat lists those). Only conversations the person takes part in now
 * (never forks, which have no participants), as search; deleted messages and their own are left
 * out. Each branch reads its index newest first and stops at the page: mentions by
 * message_mentions (userId, …), answers by messages (askedByUserId, createdAt DESC, id DESC).
 */
export async function listInbox(prisma: Prisma, { userId, cursor, limit = INBOX_PAGE_SIZE }: { userId: string; cursor?: InboxCursor; limit?: number }): Promise<InboxPage> {
  const older = cursor ? sql`AND (m."createdAt", m."id") < (${cursor.createdAt}::timestamp(3), ${cursor.id})` : empty;
  const rows = await prisma.$queryRaw<Row[]>`
    WITH ${myConversations(userId)}, found AS (
      (SELECT m."id", m."createdAt", true AS "mentioned"
       FROM "message_mentions" mm
       JOIN mine ON mine."conversationId" = mm."conversationId"
       JOIN "messages" m ON m."id" = mm."messageId"
       WHERE mm."userId" = ${userId} AND m."deletedAt" IS NULL AND m."authorUserId" IS DISTINCT FROM ${userId} ${older}
       ORDER BY m."createdAt" DESC, m."id" DESC LIMIT ${limit + 1})
      UNION ALL
      (SELECT m."id", m."createdAt", false
       FROM "messages" m
       JOIN mine ON mine."conversationId" = m."conversationId"
       JOIN "conversations" c ON c."id" = m."conversationId" AND c."type" = 'group'
       WHERE m."askedByUserId" = ${userId} AND m."deletedAt" IS NULL ${older}
       ORDER BY m."createdAt" DESC, m."id" DESC LIMIT ${limit + 1})
    ), page AS (
      -- An answer that also mentions the person is listed once, as a mention.
      SELECT "id", "createdAt", bool_or("mentioned") AS "mentioned" FROM found
      GROUP BY "id", "createdAt" ORDER BY "createdAt" DESC, "id" DESC LIMIT ${limit + 1}
    )
    SELECT m."id", m."conversationId", c."type"::text AS "type", c."title", m."seq", page."mentioned", m."createdAt", left(m."content", 400) AS "content",
           m."seq" > mine."lastReadSeq" AS "unread",
           CASE WHEN u."id" IS NOT NULL THEN 'user' WHEN a."id" IS NOT NULL THEN 'agent' END AS "authorKind",
           COALESCE(u."id", a."id") AS "authorId", COALESCE(a."displayName", u."name") AS "authorName",
           (SELECT COALESCE(oa."displayName", ou."name") FROM "participants" o
            LEFT JOIN "users" ou ON ou."id" = o."userId" LEFT JOIN "agents" oa ON oa."id" = o."agentId"
            WHERE c."type" <> 'group' AND o."conversationId" = c."id" AND o."userId" IS DISTINCT FROM ${userId} LIMIT 1) AS "peerName"
    FROM page
    JOIN "messages" m ON m."id" = page."id"
    JOIN mine ON mine."conversationId" = m."conversationId"
    JOIN "conversations" c ON c."id" = m."conversationId"
    LEFT JOIN "users" u ON u."id" = m."authorUserId"
    LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
    ORDER BY m."createdAt" DESC, m."id" DESC`;
  const items = rows.slice(0, limit).map(toItem);
  const last = rows.length > limit ? rows[limit - 1] : undefined;
  return { items, nextCursor: last ? encodeCursor(last) : null };
}

/** `mine`: the conversations the person takes part in, with their read position in each. */
export function myConversations(userId: string) {
  return sql`mine AS (
      SELECT p."conversationId", COALESCE(r."lastReadSeq", 0) AS "lastReadSeq"
      FROM "participants" p
      LEFT JOIN "read_states" r ON r."userId" = p."userId" AND r."conversationId" = p."conversationId"
      WHERE p."userId" = ${userId}
    )`;
}

function toItem(row: Row): InboxItem {
  return {
    id: row.id,
    conversationId: row.conversationId,
    // The sidebar's name (lib/conversations/list-conversations.ts).
    conversationTitle: row.type === "group" || (row.type === "agent_dm" && row.title) ? row.title : (row.peerName ?? "Unknown"),
    seq: row.seq,
    kind: row.mentioned ? "mention" : "answer",
    author: row.authorKind && row.authorId ? { kind: row.authorKind, id: row.authorId, name: row.authorName ?? "Unknown" } : null,
    createdAt: row.createdAt.toISOString(),
    preview: previewOf(row.content),
    unread: row.unread,
  };
}
