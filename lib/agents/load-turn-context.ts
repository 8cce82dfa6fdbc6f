import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import type { HistoryMessage } from "./build-prompt";

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
}

export interface TurnContext {
  agent: TurnAgent;
  /** Whose sidebars show the agent at work. */
  participantUserIds: string[];
  /** The agent's window of messages up to the one it answers, oldest first. */
  history: HistoryMessage[];
}

/**
 * Everything a turn needs before it can call the model, in one statement: this is the time
 * between a message and the first token, so it is one round trip rather than three.
 */
export async function loadTurnContext(prisma: Prisma, job: ClaimedDispatch): Promise<TurnContext> {
  const [row] = await prisma.$queryRaw<{ agent: TurnAgent; participantUserIds: string[]; history: HistoryMessage[] }[]>`
    WITH agent AS (
      SELECT "id", "handle", "displayName", "color", "systemPrompt", "provider", "model", "temperature", "maxOutputTokens", "historyWindow"
      FROM "agents" WHERE "id" = ${job.agentId}
    ), recent AS (
      SELECT m."seq", m."role", m."content", m."authorAgentId", COALESCE(u."handle", a."handle") AS "authorHandle"
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
           COALESCE((SELECT json_agg(json_build_object('role', "role", 'content', "content", 'authorAgentId', "authorAgentId", 'authorHandle', "authorHandle") ORDER BY "seq")
                     FROM recent), '[]'::json) AS "history"`;
  if (!row?.agent) throw new Error(`agent ${job.agentId} of dispatch ${job.id} no longer exists`);
  return row;
}
