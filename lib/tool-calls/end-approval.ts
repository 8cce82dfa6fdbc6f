import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { messageMetadataSchema, type StepCallMetadata } from "@/lib/conversations/message-metadata";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { nextChangeSeq, readMessage } from "@/lib/messages/changed-message";

export type ApprovalEnd = { status: "approved"; by: { id: string; name: string } } | { status: "denied"; by: { id: string; name: string }; reason: string } | { status: "expired" };

/** An ask-first call's approval as the turn reads it. */
export interface ApprovalState {
  id: string;
  callId: string;
  status: "pending" | "approved" | "denied" | "expired";
  decidedByName: string | null;
  reason: string | null;
  expiresAt: Date;
  /** Past its time by the database's clock, the one decisions are checked against. */
  expired: boolean;
}

/** A turn's approvals, by the call they are for. */
export async function readApprovals(prisma: Prisma, dispatchId: string): Promise<Map<string, ApprovalState>> {
  const rows = await prisma.$queryRaw<ApprovalState[]>`
    SELECT "id", "callId", "status"::text AS "status", "decidedByName", "reason", "expiresAt", "expiresAt" <= now() AS "expired"
    FROM "tool_approvals" WHERE "dispatchId" = ${dispatchId}`;
  return new Map(rows.map((row) => [row.callId, row]));
}

/**
 * Ends a pending approval, once: approved or denied while it has not expired, or expired once its
 * time is past (a conditional update of the pending row, so two decisions, or a decision and the
 * expiry, can never both happen). The step message's call says how it ended, as a change of the
 * message the room is told of. Null when the approval was not pending (or not yet past its time).
 */
export async function endApproval(tx: Transaction, approvalId: string, end: ApprovalEnd): Promise<MessageDto | null> {
  const by = end.status === "expired" ? null : end.by;
  const reason = end.status === "denied" ? end.reason : null;
  const [ended] = await tx.$queryRaw<{ stepMessageId: string; callId: string; conversationId: string }[]>`
    UPDATE "tool_approvals" SET "status" = ${end.status}::"ToolApprovalStatus", "decidedByUserId" = ${by?.id ?? null}, "decidedByName" = ${by?.name ?? null},
      "reason" = ${reason}, "decidedAt" = now()
    WHERE "id" = ${approvalId} AND "status" = 'pending' AND ${end.status === "expired" ? sql`"expiresAt" <= now()` : sql`"expiresAt" > now()`}
    RETURNING "stepMessageId", "callId", "conversationId"`;
  if (!ended) return null;
  const step = await tx.message.findUniqueOrThrow({ where: { id: ended.stepMessageId }, select: { metadata: true } });
  const metadata = messageMetadataSchema.parse(step.metadata);
  const decided = (call: StepCallMetadata): StepCallMetadata =>
    call.id === ended.callId ? { ...call, approval: end.status, ...(by ? { decidedBy: by.name } : {}), ...(reason ? { reason } : {}) } : call;
  const toolStep = metadata.toolStep && { ...metadata.toolStep, calls: metadata.toolStep.calls.map(decided) };
  await tx.message.update({ where: { id: ended.stepMessageId }, data: { metadata: { ...metadata, toolStep }, changeSeq: await nextChangeSeq(tx, ended.conversationId) } });
  return readMessage(tx, ended.stepMessageId);
}
