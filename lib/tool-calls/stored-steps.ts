import type { CallRecord, StepRecord, StepSource } from "@/lib/context/types";
import { messageMetadataSchema, type MessageMetadata, type StepCallMetadata, type ToolResultMetadata } from "@/lib/conversations/message-metadata";
import type { Prisma } from "@/lib/db/open-database";
import type { StepMessage, ToolCallsMessage } from "@/lib/llm/types";

/** A tool step as stored: its message, and the calls that have no result yet. */
export interface OpenStep {
  messageId: string;
  calls: StepCallMetadata[];
}

/** What a turn's earlier attempts (or its own earlier steps) left: the loop goes on from there. */
export interface StoredSteps {
  /** As given to the model: each step's assistant message, then its results in the order of its calls. */
  messages: StepMessage[];
  records: StepRecord[];
  /** One per step: the model call that asked for its tools. */
  calls: CallRecord[];
  /** The last step, when some of its calls have no result yet (waiting for approval, or cut short). */
  open: OpenStep | null;
  /** When the turn's first step started; null before any. */
  turnStartedAt: string | null;
}

interface Row {
  id: string;
  content: string;
  metadata: unknown;
}

/** A step message as the model was given it. */
export function toolCallsMessage(content: string, calls: Pick<StepCallMetadata, "id" | "name" | "arguments">[]): ToolCallsMessage {
  return { role: "assistant", content: content === "" ? null : content, tool_calls: calls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })) };
}

/** The snapshot's record of a result; `startedAt` in milliseconds since the turn's first step started. */
export function stepRecordOf(call: Pick<StepCallMetadata, "id" | "name">, result: ToolResultMetadata, turnStartedAt: string): StepRecord {
  return {
    callId: call.id,
    tool: call.name,
    server: result.server,
    arguments: result.arguments,
    approval: result.approval === "pending" ? "none" : result.approval,
    ...(result.decidedBy ? { decidedBy: result.decidedBy } : {}),
    resultTokens: result.resultTokens,
    cut: result.cut,
    ...(result.error ? { error: result.error } : {}),
    startedAt: Date.parse(result.startedAt) - Date.parse(turnStartedAt),
    ms: result.ms,
  };
}

/** A turn's first attempt: steps are stored by one attempt and taken up by a later one. */
export function noStoredSteps(): StoredSteps {
  return { messages: [], records: [], calls: [], open: null, turnStartedAt: null };
}

/**
 * The tool steps a turn (one dispatch) has stored so far, in order: a turn resumed after its
 * approval, or by another node after this one stopped, goes on from the last step instead of
 * asking the model again. Steps and results are found by their dispatch (an index on it).
 */
export async function loadStoredSteps(prisma: Prisma, dispatchId: string): Promise<StoredSteps> {
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT "id", "content", "metadata" FROM "messages"
    WHERE "metadata"->>'dispatchId' = ${dispatchId} AND ("role" = 'tool' OR "metadata" ? 'toolStep')
    ORDER BY "seq"`;
  const stored = noStoredSteps();
  const results = new Map<string, { content: string; result: ToolResultMetadata }>();
  const steps: { id: string; content: string; calls: StepCallMetadata[]; usedTokens: number; turnStartedAt: string }[] = [];
  for (const row of rows) {
    const metadata = messageMetadataSchema.safeParse(row.metadata);
    if (!metadata.success) continue;
    const { toolStep, toolResult, toolCallId } = metadata.data;
    if (toolStep) steps.push({ id: row.id, content: row.content, ...toolStep });
    else if (toolResult && toolCallId) results.set(toolCallId, { content: row.content, result: toolResult });
  }
  for (const step of steps) {
    stored.turnStartedAt ??= step.turnStartedAt;
    stored.calls.push({ usedTokens: step.usedTokens });
    stored.messages.push(toolCallsMessage(step.content, step.calls));
    const open = step.calls.filter((call) => !results.has(call.id));
    for (const call of step.calls) {
      const answered = results.get(call.id);
      if (!answered) continue;
      stored.messages.push({ role: "tool", tool_call_id: call.id, content: answered.content });
      stored.records.push(stepRecordOf(call, answered.result, stored.turnStartedAt));
    }
    if (open.length > 0) stored.open = { messageId: step.id, calls: open };
  }
  return stored;
}

/**
 * A reply's stored steps as a later turn sends them, in order. A call left without a result (its
 * turn was stopped while it ran) is left out with its call, since a model refuses calls without
 * results; a step left with no call goes too.
 */
export function stepSourcesOf(rows: { id: string; seq: number; role: string; content: string; metadata: unknown }[]): StepSource[] {
  const answered = new Set(rows.flatMap((row) => (row.role === "tool" ? [(row.metadata as { toolCallId?: string }).toolCallId] : [])));
  return rows.flatMap((row): StepSource[] => {
    const metadata = row.metadata as MessageMetadata;
    if (row.role === "tool") return metadata.toolCallId ? [{ id: row.id, seq: row.seq, message: { role: "tool", tool_call_id: metadata.toolCallId, content: row.content }, toolName: metadata.toolName }] : [];
    const calls = metadata.toolStep?.calls.filter((call) => answered.has(call.id)) ?? [];
    return calls.length > 0 ? [{ id: row.id, seq: row.seq, message: toolCallsMessage(row.content, calls) }] : [];
  });
}
