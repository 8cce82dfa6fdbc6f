import { avatarOf } from "@/lib/avatars/avatar-rules";
import type { Prisma } from "@/lib/db/open-database";
import { sql, empty } from "@/lib/generated/prisma/internal/prismaNamespace";
import { defaultNotifyLevel, NOTIFY_LEVELS, type NotifyLevel } from "./notification-level";

export interface ConversationPeer {
  kind: "user" | "agent";
  id: string;
  name: string;
  /** An agent's colour, or a person's own (null: derived from their id). */
  color: string | null;
  /** A person's picture; agents have none. */
  avatarUrl: string | null;
}

/** A conversation as the sidebar and header show it to one user. */
export interface ConversationSummary {
  id: string;
  projectId: string;
  type: "group" | "dm" | "agent_dm";
  key: "global" | "per_room" | "direct_message";
  /** Channel or room name; an agent chat's own title; otherwise (DMs, untitled chats) the other party's name. */
  title: string;
  /** Channels: what it is for, shown under its name. */
  topic: string | null;
  /** Read-only, and listed apart in the sidebar. */
  archived: boolean;
  /** Joined by invitation only. */
  isPrivate: boolean;
  /** Who created it (a channel's creator may manage it); null for older conversations. */
  createdByUserId: string | null;
  lastSeq: number;
  lastReadSeq: number;
  unread: number;
  /** Unread messages that @mention this user. */
  mentions: number;
  peer: ConversationPeer | null;
  /** Which new messages tell this user (their choice, or the type's default). */
  notify: NotifyLevel;
  /** Muted by this user: not counted in the tab, no notification, dimmed in the sidebar. */
  muted: boolean;
}

interface Row {
  id: string;
  projectId: string;
  type: ConversationSummary["type"];
  key: ConversationSummary["key"];
  title: string;
  topic: string | null;
  archived: boolean;
  isPrivate: boolean;
  createdByUserId: string | null;
  lastSeq: number;
  lastReadSeq: number;
  unread: number;
  mentions: number;
  notify: string | null;
  muted: boolean;
  peerKind: "user" | "agent" | null;
  peerId: string | null;
  peerName: string | null;
  peerColor: string | null;
  peerImage: string | null;
}

/**
 * Every conversation of a user with unread and mention counts, in ONE statement (no N+1):
 * unread is lastSeq − lastReadSeq because sequence numbers have no gaps, and unread mentions
 * are a counter on the read state, kept by posting and reading.
 */
export async function listConversations(
  prisma: Prisma,
  { userId, conversationId }: { userId: string; conversationId?: string },
): Promise<ConversationSummary[]> {
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT c."id", c."projectId", c."type"::text AS "type", c."key"::text AS "key", c."title", c."lastSeq",
           c."topic", c."archivedAt" IS NOT NULL AS "archived", c."isPrivate", c."createdByUserId",
           COALESCE(r."lastReadSeq", 0) AS "lastReadSeq",
           GREATEST(c."lastSeq" - COALESCE(r."lastReadSeq", 0), 0)::int AS "unread",
           COALESCE(r."unreadMentions", 0) AS "mentions", p."notify", p."muted",
           peer."kind" AS "peerKind", peer."id" AS "peerId", peer."name" AS "peerName", peer."color" AS "peerColor", peer."image" AS "peerImage"
    FROM "participants" p
    JOIN "conversations" c ON c."id" = p."conversationId"
    LEFT JOIN "read_states" r ON r."userId" = p."userId" AND r."conversationId" = c."id"
    LEFT JOIN LATERAL (
      SELECT CASE WHEN o."agentId" IS NULL THEN 'user' ELSE 'agent' END AS "kind",
             COALESCE(o."agentId", o."userId") AS "id", COALESCE(a."displayName", u."name") AS "name",
             COALESCE(a."color", u."avatarColor") AS "color", u."image"
      FROM "participants" o
      LEFT JOIN "users" u ON u."id" = o."userId"
      LEFT JOIN "agents" a ON a."id" = o."agentId"
      WHERE c."type" <> 'group' AND o."conversationId" = c."id" AND o."userId" IS DISTINCT FROM p."userId"
      LIMIT 1
    ) peer ON true
    WHERE p."userId" = ${userId} ${conversationId ? sql`AND c."id" = ${conversationId}` : empty}
    ORDER BY c."updatedAt" DESC`;
  return rows.map(({ peerKind, peerId, peerName, peerColor, peerImage, notify, ...row }) => ({
    ...row,
    notify: NOTIFY_LEVELS.find((level) => level === notify) ?? defaultNotifyLevel(row.type),
    title: row.type === "group" || (row.type === "agent_dm" && row.title) ? row.title : (peerName ?? "Unknown"),
    peer: peerKind && peerId ? { kind: peerKind, id: peerId, name: peerName ?? "Unknown", ...avatarOf({ id: peerId, image: peerImage, avatarColor: peerColor }) } : null,
  }));
}

export async function getConversation(
  prisma: Prisma,
  { userId, conversationId }: { userId: string; conversationId: string },
): Promise<ConversationSummary | null> {
  const [conversation] = await listConversations(prisma, { userId, conversationId });
  return conversation ?? null;
}
