import type { Published } from "@/lib/agents/append-message";
import { appendMessage } from "@/lib/agents/append-message";
import type { MessageAuthor } from "@/lib/conversations/message-dto";
import type { MessageMetadata, ToolResultMetadata, ToolStepMetadata } from "@/lib/conversations/message-metadata";
import type { Prisma } from "@/lib/db/open-database";
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

/**
 * A model call's tool calls, as one message (its text with them), with a pending approval for each
 * ask-first call, in one transaction while the turn's attempt holds its dispatch. Null when it no
 * longer does.
 */
export async function persistToolStep(
  writer: StepWriter,
  { content, step, expiresAt }: { content: string; step: ToolStepMetadata; expiresAt: Date },
): Promise<Published | null> {
  return writer.prisma.$transaction(async (tx) => {
    if (!(await stillHolds(tx, writer.fence))) return null;
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
  });
}

/** A call's result as its own message (role `tool`), while the turn's attempt holds its dispatch; null when it no longer does. */
export async function persistToolResult(
  writer: StepWriter,
  { callId, toolName, content, result }: { callId: string; toolName: string; content: string; result: ToolResultMetadata },
): Promise<Published | null> {
  return writer.prisma.$transaction(async (tx) => {
    if (!(await stillHolds(tx, writer.fence))) return null;
    const metadata: MessageMetadata = { ...writer.metadata, isToolResult: true, toolName, toolCallId: callId, toolResult: result, timestamp: new Date().toISOString() };
    return appendMessage(tx, { ...writer, content, metadata, role: "tool" });
  });
}
