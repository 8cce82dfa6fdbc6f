import { randomBytes } from "node:crypto";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { adminProject, agentSettingsColumns, getAgent, type AdminAgent } from "./manage-agents";

const MAX_HANDLE = 24;

/**
 * Deletes an agent: the row stays, so its messages keep their attribution (its name, colour and
 * model) and its conversations still read as they did, but it answers no one (disabled), is listed,
 * offered and mentionable nowhere, and its handle is free again. Refused while it still has turns to finish, or while an orchestrator or a saved
 * panel names it, saying which.
 */
export async function deleteAgent(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<void> {
  const projectId = await adminProject(prisma, actor);
  await prisma.$transaction(async (tx) => {
    const [agent] = await tx.$queryRaw<{ id: string; handle: string; displayName: string }[]>`
      SELECT "id", "handle", "displayName" FROM "agents" WHERE "id" = ${agentId} AND "projectId" = ${projectId} AND "deletedAt" IS NULL FOR UPDATE`;
    if (!agent) throw new AppError("not_found", "That agent does not exist in your project.");
    const waiting = await tx.dispatch.count({ where: { agentId, status: { in: ["pending", "running"] } } });
    if (waiting > 0) throw new AppError("conflict", `${agent.displayName} still has ${waiting} answer${waiting === 1 ? "" : "s"} running or waiting: stop ${waiting === 1 ? "it" : "them"} (or wait), then delete.`);
    const orchestrators = await tx.$queryRaw<{ displayName: string }[]>`
      SELECT "displayName" FROM "agents"
      WHERE "projectId" = ${projectId} AND "deletedAt" IS NULL AND "id" <> ${agentId}
        AND "handoffSettings"->'specialists' @> jsonb_build_array(jsonb_build_object('agentId', ${agentId}::text))`;
    if (orchestrators.length > 0) throw new AppError("conflict", `${names(orchestrators)} ${orchestrators.length === 1 ? "hands" : "hand"} off to ${agent.displayName}: remove it from their specialists first.`);
    const panels = await tx.savedPanel.findMany({ where: { projectId, agentIds: { has: agentId } }, select: { name: true } });
    if (panels.length > 0) throw new AppError("conflict", `The saved panel${panels.length === 1 ? "" : "s"} ${panels.map((panel) => panel.name).join(", ")} ${panels.length === 1 ? "seats" : "seat"} ${agent.displayName}: change ${panels.length === 1 ? "it" : "them"} first.`);
    await tx.agent.update({
      where: { id: agentId },
      data: { deletedAt: new Date(), enabled: false, handle: freedHandle(agent.handle), provider: "offline", providerId: null },
    });
  });
  log.info("agent deleted", { agentId, by: actor.id });
}

/**
 * A copy of an agent's settings (profile, model, context, handoff settings and tools) under a new
 * handle, disabled until an admin looks it over. What it learned is not copied: knowledge,
 * procedures and memories stay with the original.
 */
export async function duplicateAgent(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<AdminAgent> {
  const projectId = await adminProject(prisma, actor);
  const source = await prisma.agent.findFirst({ where: { id: agentId, projectId, deletedAt: null }, select: copiedColumns });
  if (!source) throw new AppError("not_found", "That agent does not exist in your project.");
  for (let attempt = 1; attempt <= 20; attempt++) {
    const handle = copyHandle(source.handle, attempt);
    try {
      const copy = await prisma.$transaction(async (tx) => {
        const { tools, contextSettings, handoffSettings, ...settings } = source;
        const created = await tx.agent.create({
          data: { ...settings, projectId, contextSettings: contextSettings ?? {}, handoffSettings: handoffSettings ?? {}, handle, displayName: `${source.displayName} (copy)`.slice(0, 60), enabled: false },
          select: { id: true },
        });
        if (tools.length > 0) await tx.agentTool.createMany({ data: tools.map((tool) => ({ agentId: created.id, serverId: tool.serverId, toolName: tool.toolName, askFirst: tool.askFirst })) });
        return created;
      });
      log.info("agent duplicated", { agentId, copyId: copy.id, by: actor.id });
      return getAgent(prisma, { actor, agentId: copy.id });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  throw new AppError("conflict", `Could not find a free handle for a copy of @${source.handle}. Rename some copies first.`);
}

/** What a copy takes: the settings, not what the agent learned or its place in conversations. */
const copiedColumns = {
  ...agentSettingsColumns,
  handoffSettings: true,
  tools: { select: { serverId: true, toolName: true, askFirst: true } },
} as const;

function names(rows: { displayName: string }[]): string {
  return rows.map((row) => row.displayName).join(", ");
}

/** "toby" → "toby-copy", then "toby-copy2"…, cut to fit a handle. */
function copyHandle(handle: string, attempt: number): string {
  const suffix = attempt === 1 ? "-copy" : `-copy${attempt}`;
  return `${handle.slice(0, MAX_HANDLE - suffix.length)}${suffix}`;
}

/** A deleted agent's handle, freed for a new one: "toby" → "toby~3f9a" (no person or agent can type ~). */
function freedHandle(handle: string): string {
  return `${handle}~${randomBytes(3).toString("hex")}`;
}
