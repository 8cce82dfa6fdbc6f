"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { AppError } from "@/lib/errors/app-error";
import { createProcedure, deleteProcedure, procedureInputSchema, setProcedureStatus, updateProcedure } from "@/lib/memory/manage-procedures";
import type { Runtime } from "@/lib/runtime/runtime";

const ids = { agentId: z.string().min(1), procedureId: z.string().min(1) };
/** Steps come from a textarea: one per line. */
const input = procedureInputSchema.extend({
  steps: z.preprocess((value) => (typeof value === "string" ? value.split("\n").map((line) => line.trim()).filter(Boolean) : value), procedureInputSchema.shape.steps),
});

function memoryDeps(runtime: Runtime) {
  if (!runtime.memory) throw new AppError("internal", "Memory is not running on this server.");
  return { prisma: runtime.db.prisma, embedder: runtime.memory.embedder };
}

export const createProcedureAction = adminAction("create-procedure", input.extend({ agentId: ids.agentId }), ({ agentId, ...fields }, { runtime, user }) =>
  createProcedure(memoryDeps(runtime), { actor: user, agentId, input: fields }),
);

export const updateProcedureAction = adminAction("update-procedure", input.extend(ids), ({ agentId, procedureId, ...fields }, { runtime, user }) =>
  updateProcedure(memoryDeps(runtime), { actor: user, agentId, procedureId, input: fields }),
);

export const setProcedureStatusAction = adminAction("set-procedure-status", z.object({ ...ids, status: z.enum(["approved", "rejected"]) }), (fields, { runtime, user }) =>
  setProcedureStatus(runtime.db.prisma, { actor: user, ...fields }),
);

export const deleteProcedureAction = adminAction("delete-procedure", z.object(ids), (fields, { runtime, user }) => deleteProcedure(runtime.db.prisma, { actor: user, ...fields }));
