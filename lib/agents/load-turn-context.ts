import { kindOf } from "@/lib/attachments/attachment-kind";
import type { ConversationMessage, MessageAttachment } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import { stepSourcesOf } from "@/lib/tool-calls/stored-steps";

export interface TurnAgent {
  id: string;
  handle: string;
  displayName: string;
  color: string;
  systemPrompt: string;
  provider: "openai" | "offline";
  model: string;
  temperature: number;
  maxOutputTokens: number;
  historyWindow: number;
  /** Validated by readContextSettings before use. */
  contextSettings: unknown;
  /** Validated by readHandoffSettings before use. */
  handoffSettings: unknown;
  /** The agents its handoff settings name as specialists, as they are now (orchestrators only). */
  specialistAgents: SpecialistAgent[];
  /** Whether an admin gave it MCP tools (else no server is asked). */
  hasTools: boolean;
  projectId: string;
}

export interface SpecialistAgent {
  id: string;
  handle: string;
  displayName: string;
  description: string;
  enabled: boolean;
}

export interface TurnContext {
  agent: TurnAgent;
  /** Where people watch the turn: the conversation itself, or for a fork the one at its root. */
  watchedConversationId: string;
  /** Whose sidebars show the agent at work (the watched conversation's people). */
  participantUserIds: string[];
  /** 0 for an ordinary conversation, n for a fork n levels deep. */
  forkDepth: number;
  /**
   * The messages before the one being answered, as the turn's mode shares them, oldest first:
   * the agent's window (direct, fork), the last N (recent), all (full) or the handoff summary alone.
   */
  history: ConversationMessage[];
  /** How many messages the history window holds, the current one included (assembly's historyWindow). */
  historyWindow: number;
  /** The message being answered. */
  current: ConversationMessage;
  /** Who asked: whose memories the agent may recall (null when an agent asked). */
  askedBy: string | null;
  /** Their name (they, or an admin, decide the turn's ask-first tool calls). */
  askedByName: string | null;
}

interface Row {
  agent: TurnAgent | null;
  watchedConversationId: string;
  participantUserIds: string[];
  forkDepth: number;
  window: (Omit<ConversationMessage, "tokens" | "attachments"> & {
    tokenCount: number | null;
    tokenEncoding: string | null;
    authorUserId: string | null;
    authorName: string | null;
    attachments: Omit<MessageAttachment, "image">[] | null;
    steps: Parameters<typeof stepSourcesOf>[0] | null;
  })[];
}

/**
 * Everything a turn needs before it can assemble its context, in one statement: this is the
 * time between a message and the first token, so it is one round trip rather than three.
 * App notices and deleted messages are not loaded: they take no place in the window, which counts
 * the current message. Each message is read as it is now (edited text, the version shown).
 * After a handoff the message answered is the person's (askMessageId), and the mode decides the
 * history: summary mode sees the handoff message alone, never the raw messages as well.
 */
export async function loadTurnContext(prisma: Prisma, job: ClaimedDispatch): Promise<TurnContext> {
  const askId = job.askMessageId ?? job.messageId;
  const summaryOnly = job.mode === "summary";
  const [row] = await prisma.$queryRaw<Row[]>`
    WITH agent AS (
      SELECT a."id", a."handle", a."displayName", a."color", a."systemPrompt", a."provider", a."model", a."temperature", a."maxOutputTokens", a."historyWindow",
             a."contextSettings", a."handoffSettings", a."projectId", EXISTS (SELECT 1 FROM "agent_tools" t WHERE t."agentId" = a."id") AS "hasTools",
             (SELECT COALESCE(json_agg(json_build_object('id', s."id", 'handle', s."handle", 'displayName', s."displayName", 'description', s."description", 'enabled', s."enabled")), '[]'::json)
              FROM "agents" s
              WHERE s."projectId" = a."projectId" AND s."id" IN (
                SELECT x->>'agentId' FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a."handoffSettings"->'specialists') = 'array' THEN a."handoffSettings"->'specialists' ELSE '[]'::jsonb END) x
              )) AS "specialistAgents"
      FROM "agents" a WHERE a."id" = ${job.agentId}
    ), conversation AS (
      SELECT COALESCE("rootConversationId", "id") AS "watchedId", "forkDepth" FROM "conversations" WHERE "id" = ${job.conversationId}
    ), picked AS (
      (SELECT m."id", m."seq" AS "position"
       FROM "messages" m
       WHERE m."conversationId" = ${job.conversationId} AND m."role" <> 'system'
         -- Tool steps take no place in the window: they come with the reply they led to.
         AND m."role" <> 'tool' AND NOT (m."metadata" ? 'toolStep')
         -- Tombstones take no place in the window (the message answered is kept, to fail clearly).
         AND (m."deletedAt" IS NULL OR m."id" = ${askId})
         AND m."seq" <= (SELECT "seq" FROM "messages" WHERE "id" = ${askId})
         AND (NOT ${summaryOnly} OR m."id" = ${askId})
       ORDER BY m."seq" DESC
       LIMIT CASE ${job.mode} WHEN 'recent' THEN ${job.historyLimit ?? 0}::int + 1 WHEN 'full' THEN NULL ELSE (SELECT "historyWindow" FROM agent) END)
      UNION ALL
      -- Summary mode: the handoff message (written after the person's) comes first.
      SELECT "id", -1 AS "position" FROM "messages" WHERE ${summaryOnly} AND "id" = ${job.messageId}
    ), recent AS (
      SELECT m."id", m."seq", p."position", m."role", m."content", m."authorAgentId", m."authorUserId", u."name" AS "authorName", COALESCE(u."handle", a."handle") AS "authorHandle",
             m."tokenCount", m."tokenEncoding", m."metadata",
             (SELECT json_agg(json_build_object('id', f."id", 'name', f."name", 'mediaType', f."mediaType", 'bytes', f."bytes", 'text', f."text") ORDER BY f."position")
              FROM "attachments" f WHERE f."messageId" = m."id") AS "attachments",
             -- The agent's own replies bring the tool steps that led to them (found by their dispatch).
             CASE WHEN m."authorAgentId" = ${job.agentId} AND m."role" = 'assistant' AND m."metadata" ? 'dispatchId' THEN
               (SELECT json_agg(json_build_object('id', s."id", 'seq', s."seq", 'role', s."role", 'content', s."content", 'metadata', s."metadata") ORDER BY s."seq")
                FROM "messages" s
                WHERE s."metadata"->>'dispatchId' = m."metadata"->>'dispatchId' AND (s."role" = 'tool' OR s."metadata" ? 'toolStep') AND s."conversationId" = m."conversationId")
             END AS "steps"
      FROM picked p
      JOIN "messages" m ON m."id" = p."id"
      LEFT JOIN "users" u ON u."id" = m."authorUserId"
      LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
    )
    SELECT (SELECT row_to_json(agent) FROM agent) AS "agent",
           (SELECT "watchedId" FROM conversation) AS "watchedConversationId",
           (SELECT "forkDepth" FROM conversation) AS "forkDepth",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = (SELECT "watchedId" FROM conversation) AND "userId" IS NOT NULL) AS "participantUserIds",
           COALESCE((SELECT json_agg(json_build_object(
               'id', "id", 'seq', "seq", 'role', "role", 'content', "content", 'authorAgentId', "authorAgentId", 'authorUserId', "authorUserId", 'authorName', "authorName", 'authorHandle', "authorHandle",
               'tokenCount', "tokenCount", 'tokenEncoding', "tokenEncoding",
               'kind', CASE WHEN ("metadata"->>'isHandoffSummary')::boolean THEN 'handoff_summary' WHEN ("metadata"->>'isToolResult')::boolean THEN 'tool_result' END,
               'toolName', "metadata"->>'toolName', 'attachments', "attachments", 'steps', "steps") ORDER BY "position")
             FROM recent), '[]'::json) AS "window"`;
  if (!row?.agent) throw new Error(`agent ${job.agentId} of dispatch ${job.id} no longer exists`);
  const askedBy = row.window.at(-1)?.authorUserId ?? null;
  const askedByName = row.window.at(-1)?.authorName ?? null;
  const window = row.window.map(({ tokenCount, tokenEncoding, kind, toolName, id, seq, role, content, authorAgentId, authorHandle, attachments, steps }): ConversationMessage => ({
    id,
    seq,
    role,
    content,
    authorAgentId,
    authorHandle,
    tokens: tokenCount !== null && tokenEncoding ? { count: tokenCount, encoding: tokenEncoding } : null,
    ...(kind ? { kind } : {}),
    ...(toolName ? { toolName } : {}),
    ...(attachments ? { attachments: attachments.map((file) => ({ ...file, image: kindOf(file.mediaType) === "image" })) } : {}),
    ...(steps ? { steps: stepSourcesOf(steps) } : {}),
  }));
  const current = window.pop();
  if (!current || current.id !== askId) throw new Error(`message ${askId} of dispatch ${job.id} no longer exists`);
  const historyWindow = job.mode === "full" ? Infinity : job.mode === "recent" ? (job.historyLimit ?? 0) + 1 : job.mode === "summary" ? 2 : row.agent.historyWindow;
  return {
    agent: row.agent,
    watchedConversationId: row.watchedConversationId,
    participantUserIds: row.participantUserIds,
    forkDepth: row.forkDepth,
    history: window,
    historyWindow,
    current,
    askedBy,
    askedByName,
  };
}
