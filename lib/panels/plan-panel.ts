import { randomUUID } from "node:crypto";
import type { Transaction } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { adHocPanelRefusal, PANEL_HANDLE, savedPanelRefusal } from "./panel-rules";

export const PANEL_DEFAULTS = { maxRounds: 3, tokenCap: 20_000, timeLimitSeconds: 120 } as const;

export interface PanelPlan {
  id: string;
  agentIds: string[];
  savedPanelId: string | null;
  maxRounds: number;
  tokenCap: number;
  timeLimitSeconds: number;
  /** Handles that name the panel and its agents: they start no ordinary agent turn. */
  consumedHandles: string[];
}

interface ConversationRow {
  type: string;
  projectId: string;
  participants: { handle: string; agentId: string; enabled: boolean }[];
  savedPanel: { id: string; handle: string; agentIds: string[]; maxRounds: number; tokenCap: number; timeLimitSeconds: number } | null;
  savedAgents: { id: string; handle: string; enabled: boolean }[];
  /** The project's agents among the mentions, here or not. */
  mentionedAgents: string[];
}

/**
 * Whether a message asks a panel, and which: `@panel` with the agents mentioned after it, or a
 * saved panel's handle. Refuses, with the reason, a panel of fewer than two agents, agents who
 * are not here or are disabled, a saved panel naming an agent that no longer exists, and panels
 * outside group conversations. Null for an ordinary message (one statement, only when it mentions someone).
 */
export async function planPanel(prisma: Transaction, { conversationId, mentions }: { conversationId: string; mentions: string[] }): Promise<PanelPlan | null> {
  if (mentions.length === 0) return null;
  const [row] = await prisma.$queryRaw<ConversationRow[]>`
    WITH conversation AS (SELECT "type"::text AS "type", "projectId" FROM "conversations" WHERE "id" = ${conversationId}),
    saved AS (
      SELECT "id", "handle", "agentIds", "maxRounds", "tokenCap", "timeLimitSeconds" FROM "saved_panels"
      WHERE "projectId" = (SELECT "projectId" FROM conversation) AND "handle" = ANY(${mentions}) LIMIT 1
    )
    SELECT c."type", c."projectId",
      COALESCE((SELECT json_agg(json_build_object('handle', a."handle", 'agentId', a."id", 'enabled', a."enabled"))
                FROM "participants" p JOIN "agents" a ON a."id" = p."agentId" WHERE p."conversationId" = ${conversationId}), '[]'::json) AS "participants",
      (SELECT row_to_json(saved) FROM saved) AS "savedPanel",
      COALESCE((SELECT json_agg(json_build_object('id', a."id", 'handle', a."handle", 'enabled', a."enabled"))
                FROM "agents" a WHERE a."id" = ANY((SELECT "agentIds" FROM saved)::text[])), '[]'::json) AS "savedAgents",
      ARRAY(SELECT a."handle" FROM "agents" a WHERE a."projectId" = c."projectId" AND a."handle" = ANY(${mentions})) AS "mentionedAgents"
    FROM conversation c`;
  if (!row) return null;
  const adHoc = mentions.includes(PANEL_HANDLE);
  if (!adHoc && !row.savedPanel) return null;
  if (row.type !== "group") throw new AppError("bad_request", "Panels answer in group conversations: ask this one in a channel.");
  if (row.savedPanel && !adHoc) return savedPlan(row.savedPanel, row.savedAgents);

  const outsider = row.mentionedAgents.find((handle) => !row.participants.some((participant) => participant.handle === handle));
  if (outsider) throw new AppError("bad_request", `@${outsider} is not in this conversation: add it (Add agent) before asking it on a panel.`);
  // In the order they were mentioned: the card's columns follow it.
  const agents = [...new Set(mentions)].flatMap((handle) => row.participants.filter((participant) => participant.handle === handle));
  const refusal = adHocPanelRefusal(agents);
  if (refusal) throw new AppError("bad_request", refusal);
  return { id: randomUUID(), agentIds: agents.map((agent) => agent.agentId), savedPanelId: null, ...PANEL_DEFAULTS, consumedHandles: [PANEL_HANDLE, ...agents.map((agent) => agent.handle)] };
}

function savedPlan(saved: NonNullable<ConversationRow["savedPanel"]>, agents: ConversationRow["savedAgents"]): PanelPlan {
  const refusal = savedPanelRefusal(saved, agents);
  if (refusal) throw new AppError("bad_request", refusal);
  const { id, maxRounds, tokenCap, timeLimitSeconds } = saved;
  // A panel saved before duplicates were refused seats each agent once.
  return { id: randomUUID(), agentIds: [...new Set(saved.agentIds)], savedPanelId: id, maxRounds, tokenCap, timeLimitSeconds, consumedHandles: [saved.handle, ...agents.map((agent) => agent.handle)] };
}

/** The panel row, in the posting transaction, once the question is written. */
export async function insertPanel(tx: Transaction, plan: PanelPlan, { conversationId, questionMessageId }: { conversationId: string; questionMessageId: string }): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO "panels" ("id", "conversationId", "questionMessageId", "savedPanelId", "agentIds", "maxRounds", "tokenCap", "deadline", "updatedAt")
    VALUES (${plan.id}, ${conversationId}, ${questionMessageId}, ${plan.savedPanelId}, ${plan.agentIds}::text[], ${plan.maxRounds}, ${plan.tokenCap},
            now() + ${plan.timeLimitSeconds} * interval '1 second', now())`;
}
