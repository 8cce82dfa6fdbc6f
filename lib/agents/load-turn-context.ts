import { kindOf } from "@/lib/attachments/attachment-kind";
import type { ConversationMessage, MessageAttachment } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import type { MemoryPresence } from "@/lib/memory/retrieve-memory";
import { stepSourcesOf } from "@/lib/tool-calls/stored-steps";
import type { AgentProvider } from "@/lib/llm/types";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { capOf, monthlyUsageColumn, type CapState, type MonthlyUsage } from "@/lib/usage/monthly-cap";
import { rawRows } from "@/lib/db/raw-statements";

export interface TurnAgent {
  id: string;
  handle: string;
  displayName: string;
  color: string;
  systemPrompt: string;
  provider: AgentProvider;
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
  /** What the agent, and the person asking, have in memory (whether the memory searches need the question's embedding). */
  memory: MemoryPresence;
  /** Where the agent stands against its monthly token cap (null: no cap), read with the rest. */
  monthlyCap: CapState | null;
}

/** What chorus_turn_context returns for a turn (read by the claim, or by loadTurnContext). */
export interface TurnRow {
  agent: TurnAgent | null;
  watchedConversationId: string;
  participantUserIds: string[];
  forkDepth: number;
  memory: MemoryPresence;
  /** The window's messages as columns, in the window's order (chorus_turn_window); null when it is empty. */
  window: { [Field in keyof WindowMessage]: WindowMessage[Field][] } | null;
}

/** A message of the window as the database reads it. */
type WindowMessage = Required<Pick<ConversationMessage, "id" | "seq" | "role" | "content" | "authorAgentId" | "authorHandle">> & {
  kind: ConversationMessage["kind"] | null;
  toolName: string | null;
  tokenCount: number | null;
  tokenEncoding: string | null;
  authorUserId: string | null;
  authorName: string | null;
  attachments: Omit<MessageAttachment, "image">[] | null;
  steps: Parameters<typeof stepSourcesOf>[0] | null;
};

/** The window's messages from its columns. */
function windowMessages(columns: TurnRow["window"]): WindowMessage[] {
  if (!columns) return [];
  const fields = Object.keys(columns) as (keyof WindowMessage)[];
  return columns.id.map((_, index) => Object.fromEntries(fields.map((field) => [field, columns[field][index]])) as WindowMessage);
}

/**
 * Everything a turn needs before it can assemble its context, in one statement: this is the
 * time between a message and the first token, so it is one round trip rather than three, and a
 * database function (chorus_turn_context, migration 20261127020000_turn_functions) whose
 * plan is kept rather than made again for every turn; a claimed turn's is read by the claim's
 * own statement (ClaimedDispatch.turn), one round trip fewer. The agent, with its specialists as they
 * are now; where the turn is watched and by whom; what the agent and the person asking have in
 * memory (migration 20261127030000_turn_memory_presence); its monthly token cap and use; and
 * the history window:
 * - app notices and deleted messages are not loaded: they take no place in the window, which
 *   counts the current message (a deleted message answered is kept, to fail clearly);
 * - tool steps take no place either: the agent's own replies bring the steps that led to them;
 * - each message is read as it is now (edited text, the version shown), with its attachments;
 * - after a handoff the message answered is the person's (askMessageId), and the mode decides
 *   the history: summary mode sees the handoff message alone, never the raw messages as well.
 */
export async function loadTurnContext(prisma: Prisma, job: ClaimedDispatch): Promise<TurnContext> {
  const askId = job.askMessageId ?? job.messageId;
  // A claimed turn was loaded, with its agent's monthly usage, by its claim's statement (lib/dispatch/claim-dispatch.ts).
  const { turn: row, monthlyUsage } = job.turn && job.monthlyUsage !== undefined ? { turn: job.turn, monthlyUsage: job.monthlyUsage } : await readTurnRow(prisma, job, askId);
  if (!row?.agent) throw new Error(`agent ${job.agentId} of dispatch ${job.id} no longer exists`);
  const messages = windowMessages(row.window);
  const askedBy = messages.at(-1)?.authorUserId ?? null;
  const askedByName = messages.at(-1)?.authorName ?? null;
  const window = messages.map(({ tokenCount, tokenEncoding, kind, toolName, id, seq, role, content, authorAgentId, authorHandle, attachments, steps }): ConversationMessage => ({
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
    memory: row.memory,
    monthlyCap: capOf(monthlyUsage),
  };
}

async function readTurnRow(prisma: Prisma, job: ClaimedDispatch, askId: string): Promise<{ turn: TurnRow | undefined; monthlyUsage: MonthlyUsage | null }> {
  const [loaded] = await rawRows<{ turn: TurnRow; monthlyUsage: MonthlyUsage | null }>(prisma, sql`
    SELECT "chorus_turn_context"(${job.agentId}, ${job.conversationId}, ${askId}, ${job.messageId}, ${job.mode}, ${job.historyLimit}::int) AS "turn",
           ${monthlyUsageColumn(sql`${job.agentId}`)} AS "monthlyUsage"`);
  return { turn: loaded?.turn, monthlyUsage: loaded?.monthlyUsage ?? null };
}
