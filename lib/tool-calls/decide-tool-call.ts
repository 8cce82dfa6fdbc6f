import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { APPROVAL_WAIT } from "@/lib/dispatch/turn-queue";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { endApproval } from "./end-approval";

export interface DecideDeps {
  prisma: Prisma;
  publisher: RealtimePublisher;
  /** Tells this node's turn worker the turn may go on (other nodes find it at their next poll). */
  wake(dispatchId: string): void;
}

export type Decision = { kind: "approve" } | { kind: "deny"; reason: string };

export interface DecidedApproval {
  id: string;
  status: "approved" | "denied";
  decidedBy: string;
}

interface Row {
  id: string;
  dispatchId: string;
  status: "pending" | "approved" | "denied" | "expired";
  decidedByName: string | null;
  askedByUserId: string | null;
  askedByName: string | null;
  tool: string;
  expired: boolean;
  turnOpen: boolean;
  isParticipant: boolean;
}

const wanted = { approve: "approved", deny: "denied" } as const;

/**
 * A person's decision on an ask-first tool call: only the person whose message started the turn,
 * or an admin, may take it; it is taken once (deciding the same again answers what was decided,
 * anything else is a conflict), never after the approval expired or the turn ended. The waiting
 * turn is woken to go on: it runs the call, or tells the model it was denied.
 */
export async function decideToolCall(deps: DecideDeps, { actor, approvalId, decision }: { actor: SessionUser; approvalId: string; decision: Decision }): Promise<DecidedApproval> {
  const outcome = await deps.prisma.$transaction(async (tx) => {
    const [row] = await tx.$queryRaw<Row[]>`
      SELECT a."id", a."dispatchId", a."status"::text AS "status", a."decidedByName", a."askedByUserId", u."name" AS "askedByName", a."tool",
             a."expiresAt" <= now() AS "expired", d."status" IN ('pending', 'running') AS "turnOpen",
             EXISTS (SELECT 1 FROM "participants" p WHERE p."userId" = ${actor.id}
                     AND p."conversationId" = (SELECT COALESCE(c."rootConversationId", c."id") FROM "conversations" c WHERE c."id" = a."conversationId")) AS "isParticipant"
      FROM "tool_approvals" a
      JOIN "dispatches" d ON d."id" = a."dispatchId"
      LEFT JOIN "users" u ON u."id" = a."askedByUserId"
      WHERE a."id" = ${approvalId}
      FOR UPDATE OF a`;
    const isAdmin = actor.role === "admin";
    if (!row || (!row.isParticipant && !isAdmin)) throw new AppError("not_found", "That tool call does not exist, or it is in a conversation you are not part of.");
    if (row.askedByUserId !== actor.id && !isAdmin) {
      throw new AppError("forbidden", `Only ${row.askedByName ?? "the person who asked"}, whose message started this turn, or an admin can decide this call.`);
    }
    if (row.status === wanted[decision.kind]) return { approval: { id: row.id, status: row.status, decidedBy: row.decidedByName ?? actor.name }, step: null };
    if (row.status === "expired" || (row.status === "pending" && row.expired)) throw new AppError("conflict", `The approval for ${row.tool} expired; the agent was told it did not run.`);
    if (row.status !== "pending") throw new AppError("conflict", `This call was already ${row.status} by ${row.decidedByName ?? "someone"}.`);
    if (!row.turnOpen) throw new AppError("conflict", "The turn this call belongs to has ended, so it will not run.");
    const by = { id: actor.id, name: actor.name };
    const step = await endApproval(tx, row.id, decision.kind === "approve" ? { status: "approved", by } : { status: "denied", by, reason: decision.reason });
    // The turn waits (given back, until the approval's expiry): it may go on now.
    await tx.$executeRaw`
      UPDATE "dispatches" SET "runAfter" = NULL, "lastError" = NULL, "updatedAt" = now()
      WHERE "id" = ${row.dispatchId} AND "status" = 'pending' AND "lastError" LIKE ${`${APPROVAL_WAIT}%`}`;
    return { approval: { id: row.id, status: wanted[decision.kind], decidedBy: actor.name }, step, dispatchId: row.dispatchId };
  });
  if (outcome.step) {
    log.info("tool call decided", { approvalId, decision: decision.kind, by: actor.id });
    deps.publisher.messageUpdated(outcome.step);
    deps.wake(outcome.dispatchId!);
  }
  return outcome.approval;
}
