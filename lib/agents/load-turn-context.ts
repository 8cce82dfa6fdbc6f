import type { ConversationMessage } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";

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
}

export interface TurnContext {
  agent: TurnAgent;
  /** Whose sidebars show the agent at work. */
  participantUserIds: string[];
  /** The messages before the one being answered, inside the agent's window, oldest first. */
  history: ConversationMessage[];
  /** The message being answered. */
  current: ConversationMessage;
  /** Who asked: whose memories the agent may recall (null when an agent asked). */
  askedBy: string | null;
}

interface Row {
  agent: TurnAgent | null;
  participantUserIds: string[];
  window: (Omit<ConversationMessage, "tokens"> & { tokenCount: number | null; tokenEncoding: string | null; authorUserId: string | null })[];
}

/**
 * Everything a turn needs before it can assemble its context, in one statement: this is the
 * time between a message and the first token, so it is one round trip rather than three.
 * App notices are not loaded: they take no place in the window, which counts the current message.
 */
export async function loadTurnContext(prisma: Prisma, job: ClaimedDispatch): Promise<TurnContext> {
  const [row] = await prisma.$queryRaw<Row[]>`
    WITH agent AS (
      SELECT "id", "handle", "displayName", "color", "systemPrompt", "provider", "model", "temperature", "maxOutputTokens", "historyWindow", "contextSettings"
      FROM "agents" WHERE "id" = ${job.agentId}
    ), recent AS (
      SELECT m."id", m."seq", m."role", m."content", m."authorAgentId", m."authorUserId", COALESCE(u."handle", a."handle") AS "authorHandle",
             m."tokenCount", m."tokenEncoding", m."metadata"
      FROM "messages" m
      LEFT JOIN "users" u ON u."id" = m."authorUserId"
      LEFT JOIN "agents" a ON a."id" = m."authorAgentId"
      WHERE m."conversationId" = ${job.conversationId} AND m."role" <> 'system'
        AND m."seq" <= (SELECT "seq" FROM "messages" WHERE "id" = ${job.messageId})
      ORDER BY m."seq" DESC
      LIMIT (SELECT "historyWindow" FROM agent)
    )
    SELECT (SELECT row_to_json(agent) FROM agent) AS "agent",
           ARRAY(SELECT "userId" FROM "participants" WHERE "conversationId" = ${job.conversationId} AND "userId" IS NOT NULL) AS "participantUserIds",
           COALESCE((SELECT json_agg(json_build_object(
               'id', "id", 'seq', "seq", 'role', "role", 'content', "content", 'authorAgentId', "authorAgentId", 'authorUserId', "authorUserId", 'authorHandle', "authorHandle",
               'tokenCount', "tokenCount", 'tokenEncoding', "tokenEncoding",
               'kind', CASE WHEN ("metadata"->>'isHandoffSummary')::boolean THEN 'handoff_summary' WHEN ("metadata"->>'isToolResult')::boolean THEN 'tool_result' END,
               'toolName', "metadata"->>'toolName') ORDER BY "seq")
             FROM recent), '[]'::json) AS "window"`;
  if (!row?.agent) throw new Error(`agent ${job.agentId} of dispatch ${job.id} no longer exists`);
  const askedBy = row.window.at(-1)?.authorUserId ?? null;
  const window = row.window.map(({ tokenCount, tokenEncoding, kind, toolName, id, seq, role, content, authorAgentId, authorHandle }): ConversationMessage => ({
    id,
    seq,
    role,
    content,
    authorAgentId,
    authorHandle,
    tokens: tokenCount !== null && tokenEncoding ? { count: tokenCount, encoding: tokenEncoding } : null,
    ...(kind ? { kind } : {}),
    ...(toolName ? { toolName } : {}),
  }));
  const current = window.pop();
  if (!current || current.id !== job.messageId) throw new Error(`message ${job.messageId} of dispatch ${job.id} no longer exists`);
  return { agent: row.agent, participantUserIds: row.participantUserIds, history: window, current, askedBy };
}
