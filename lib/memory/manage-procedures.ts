import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { log } from "@/lib/log/logger";
import { agentOfAdmin } from "@/lib/knowledge/upload-document";
import { refinePlainText } from "@/lib/validation/plain-text";
import type { Embedder } from "./embedder";
import { checkPattern } from "@/lib/validation/safe-pattern";

export const procedureStatuses = ["pending", "approved", "rejected"] as const;

/**
 * Every approved procedure is matched against every message the agent answers (trigger, then
 * meaning), and captured ones wait for review: both are bounded per agent.
 */
export const MAX_APPROVED_PROCEDURES = 50;
export const MAX_PENDING_PROCEDURES = 50;

const tooManyApproved = (name: string) =>
  new AppError("bad_request", `${name} already has ${MAX_APPROVED_PROCEDURES} approved procedures, the most an agent matches against each message. Reject or delete one first.`);

/** True while the agent has room for one more procedure of this status (the statement that writes it checks again). */
const roomFor = (status: "approved" | "pending", agentId: string) =>
  sql`(SELECT count(*) FROM "procedures" WHERE "agentId" = ${agentId} AND "status" = ${status}) < ${status === "approved" ? MAX_APPROVED_PROCEDURES : MAX_PENDING_PROCEDURES}`;

export const procedureInputSchema = z.object({
  name: z.string({ error: "Name the procedure." }).trim().min(1, "Name the procedure.").max(120, "Keep the name under 120 characters.").superRefine(refinePlainText("Names")),
  trigger: z
    .string()
    .trim()
    .max(300, "Keep the trigger under 300 characters.")
    .transform((value) => (value === "" ? null : value))
    .superRefine((value, ctx) => {
      const problem = value === null ? null : checkPattern(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    })
    .nullable()
    .default(null),
  steps: z
    .array(z.string().trim().min(1).max(500, "Keep each step under 500 characters.").superRefine(refinePlainText("Steps")))
    .min(1, "A procedure needs at least one step.")
    .max(20, "A procedure has at most 20 steps."),
});

export type ProcedureInput = z.infer<typeof procedureInputSchema>;

export interface ProcedureView {
  id: string;
  name: string;
  trigger: string | null;
  steps: string[];
  status: (typeof procedureStatuses)[number];
  createdAt: string;
}

const columns = { id: true, name: true, trigger: true, steps: true, status: true, createdAt: true } as const;
const view = (row: { id: string; name: string; trigger: string | null; steps: string[]; status: string; createdAt: Date }): ProcedureView => ({
  ...row,
  status: row.status as ProcedureView["status"],
  createdAt: row.createdAt.toISOString(),
});

/** What a procedure is matched by meaning against: its name and steps. */
export const procedureEmbeddingText = (input: { name: string; steps: string[] }) => `${input.name}. ${input.steps.join(" ")}`;

/** An agent's procedures, pending ones first (admins review them). */
export async function listProcedures(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<ProcedureView[]> {
  await agentOfAdmin(prisma, { actor, agentId });
  const rows = await prisma.procedure.findMany({ where: { agentId }, orderBy: [{ createdAt: "desc" }], select: columns });
  const order = { pending: 0, approved: 1, rejected: 2 } as Record<string, number>;
  return rows.map(view).sort((a, b) => order[a.status]! - order[b.status]!);
}

/** A procedure written by hand: approved at once (an admin wrote it), within the agent's limit. */
export async function createProcedure(deps: { prisma: Prisma; embedder: Embedder }, { actor, agentId, input }: { actor: SessionUser; agentId: string; input: ProcedureInput }): Promise<ProcedureView> {
  const agent = await agentOfAdmin(deps.prisma, { actor, agentId });
  const [embedding] = await deps.embedder.embed([procedureEmbeddingText(input)]);
  const id = randomUUID();
  const written = await insertProcedure(deps.prisma, { id, agentId, ...input, status: "approved", embedding: embedding!, sourceDispatchId: null });
  if (!written) throw tooManyApproved(agent.displayName);
  return view(await deps.prisma.procedure.findUniqueOrThrow({ where: { id }, select: columns }));
}

/** One statement: the procedure is written only while the agent has room for one more of its status. */
async function insertProcedure(
  prisma: Prisma,
  row: { id: string; agentId: string; name: string; trigger: string | null; steps: string[]; status: "approved" | "pending"; embedding: number[]; sourceDispatchId: string | null },
): Promise<boolean> {
  const inserted = await prisma.$executeRaw`
    INSERT INTO "procedures" ("id", "agentId", "name", "trigger", "steps", "status", "embedding", "sourceDispatchId", "updatedAt")
    SELECT ${row.id}, ${row.agentId}, ${row.name}, ${row.trigger}, ${row.steps}::text[], ${row.status}, ${row.embedding}::real[], ${row.sourceDispatchId}, now()
    WHERE ${roomFor(row.status, row.agentId)}`;
  return inserted === 1;
}

/** Edits a procedure's name, trigger and steps (re-embedded), leaving its status as it is. */
export async function updateProcedure(deps: { prisma: Prisma; embedder: Embedder }, { actor, agentId, procedureId, input }: { actor: SessionUser; agentId: string; procedureId: string; input: ProcedureInput }): Promise<ProcedureView> {
  await agentOfAdmin(deps.prisma, { actor, agentId });
  const [embedding] = await deps.embedder.embed([procedureEmbeddingText(input)]);
  const { count } = await deps.prisma.procedure.updateMany({ where: { id: procedureId, agentId }, data: { ...input, embedding: embedding! } });
  if (count === 0) throw new AppError("not_found", "That procedure does not exist.");
  return view(await deps.prisma.procedure.findUniqueOrThrow({ where: { id: procedureId }, select: columns }));
}

/** Approves (only approved procedures are ever matched, at most MAX_APPROVED_PROCEDURES) or rejects a procedure. */
export async function setProcedureStatus(prisma: Prisma, { actor, agentId, procedureId, status }: { actor: SessionUser; agentId: string; procedureId: string; status: "approved" | "rejected" }): Promise<void> {
  const agent = await agentOfAdmin(prisma, { actor, agentId });
  const updated = await prisma.$executeRaw`
    UPDATE "procedures" SET "status" = ${status}, "updatedAt" = now()
    WHERE "id" = ${procedureId} AND "agentId" = ${agentId} AND (${status} <> 'approved' OR "status" = 'approved' OR ${roomFor("approved", agentId)})`;
  if (updated === 1) return;
  if (await prisma.procedure.count({ where: { id: procedureId, agentId } })) throw tooManyApproved(agent.displayName);
  throw new AppError("not_found", "That procedure does not exist.");
}

export async function deleteProcedure(prisma: Prisma, { actor, agentId, procedureId }: { actor: SessionUser; agentId: string; procedureId: string }): Promise<void> {
  await agentOfAdmin(prisma, { actor, agentId });
  await prisma.procedure.deleteMany({ where: { id: procedureId, agentId } });
}

/**
 * A procedure found in a reply (by the detector or the model's capture_procedure call): pending
 * until an admin approves it. Past MAX_PENDING_PROCEDURES awaiting review, new ones are not kept.
 */
export async function capturePendingProcedure(deps: { prisma: Prisma; embedder: Embedder }, { agentId, dispatchId, name, steps, trigger = null }: { agentId: string; dispatchId: string; name: string; steps: string[]; trigger?: string | null }): Promise<void> {
  const [embedding] = await deps.embedder.embed([procedureEmbeddingText({ name, steps })]);
  if (!(await insertProcedure(deps.prisma, { id: randomUUID(), agentId, name, trigger, steps, status: "pending", embedding: embedding!, sourceDispatchId: dispatchId }))) {
    log.warn("procedure not captured: too many await review", { agentId, dispatchId, limit: MAX_PENDING_PROCEDURES });
  }
}
