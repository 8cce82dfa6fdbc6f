import type { Published } from "@/lib/agents/append-message";
import { appendMessage } from "@/lib/agents/append-message";
import type { MessageAuthor } from "@/lib/conversations/message-dto";
import type { MessageMetadata, ToolResultMetadata, ToolStepMetadata } from "@/lib/conversations/message-metadata";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { stillHolds, type Fence } from "@/lib/jobs/job-table";

/** Who writes a turn's steps, where, and what every one of its messages says about it. */
export interface StepWriter {
  prisma: Prisma;
  fence: Fence;
  conversationId: string;
  author: Extract<MessageAuthor, { kind: "agent" }>;
  model: string;
  /** dispatchId, agentId, agentDisplayName, replyToMessageId… (as the reply will carry them). */
  metadata: Omit<MessageMetadata, "timestamp">;
}

export interface StepWrite {
  content: string;
  step: ToolStepMetadata;
  /** When its ask-first calls' approvals expire. */
  expiresAt: Date;
}

export interface ResultWrite {
  callId: string;
  toolName: string;
  /** The result as given to the model. */
  content: string;
  result: ToolResultMetadata;
}

/**
 * A model call's tool calls, as one message (its text with them), with a pending approval for each
 * ask-first call, while the turn's attempt holds its dispatch. Null when it no longer does.
 */
export function persistToolStep(writer: StepWriter, step: StepWrite): Promise<Published | null> {
  return heldWrite(writer, (tx) => appendStep(tx, writer, step));
}

/** A call's result as its own message (role `tool`), while the turn's attempt holds its dispatch; null when it no longer does. */
export function persistToolResult(writer: StepWriter, result: ResultWrite): Promise<Published | null> {
  return heldWrite(writer, (tx) => appendResult(tx, writer, result));
}

/** A step whose calls all ran without waiting for anyone, and their results, in one transaction: what the room and later turns see. */
export function persistAnsweredStep(writer: StepWriter, step: StepWrite, results: ResultWrite[]): Promise<Published[] | null> {
  return heldWrite(writer, async (tx) => {
    const written = [await appendStep(tx, writer, step)];
    for (const result of results) written.push(await appendResult(tx, writer, result));
    return written;
  });
}

function heldWrite<T>(writer: StepWriter, write: (tx: Transaction) => Promise<T>): Promise<T | null> {
  return writer.prisma.$transaction(async (tx) => ((await stillHolds(tx, writer.fence)) ? write(tx) : null));
}

async function appendStep(tx: Transaction, writer: StepWriter, { content, step, expiresAt }: StepWrite): Promise<Published> {
  const published = await appendMessage(tx, { ...writer, content, metadata: { ...writer.metadata, toolStep: step, timestamp: new Date().toISOString() } });
  const asking = step.calls.filter((call) => call.approval === "pending");
  if (asking.length > 0) {
    await tx.toolApproval.createMany({
      data: asking.map((call) => ({
        id: call.approvalId!,
        dispatchId: writer.metadata.dispatchId!,
        conversationId: writer.conversationId,
        stepMessageId: published.message.id,
        callId: call.id,
        agentId: writer.author.id,
        server: call.server,
        tool: call.tool,
        arguments: call.arguments,
        askedByUserId: step.askedBy?.id ?? null,
        expiresAt,
      })),
    });
  }
  return published;
}

function appendResult(tx: Transaction, writer: StepWriter, { callId, toolName, content, result }: ResultWrite): Promise<Published> {
  const metadata: MessageMetadata = { ...writer.metadata, isToolResult: true, toolName, toolCallId: callId, toolResult: result, timestamp: new Date().toISOString() };
  return appendMessage(tx, { ...writer, content, metadata, role: "tool" });
}
