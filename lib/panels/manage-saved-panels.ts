import { randomUUID } from "node:crypto";
import { z } from "zod";
import { handleField } from "@/lib/agents/agent-settings";
import { assertAdmin } from "@/lib/auth/assert-admin";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { findPrimaryProject } from "@/lib/projects/primary-project";
import { integer } from "@/lib/validation/numbers";
import { refinePlainText } from "@/lib/validation/plain-text";
import { MAX_PANEL_SIZE, PANEL_HANDLE } from "./panel-rules";
import { PANEL_DEFAULTS } from "./plan-panel";

export const savedPanelSchema = z.object({
  handle: handleField.refine((handle) => handle !== PANEL_HANDLE, "@panel is taken: it asks a panel of the agents you mention."),
  name: z.string().trim().min(1, "Name the panel.").max(60, "Keep the name under 60 characters.").superRefine(refinePlainText("Names")),
  agentIds: z
    .array(z.string().uuid())
    .min(2, "A panel needs at least two agents.")
    .max(MAX_PANEL_SIZE, `At most ${MAX_PANEL_SIZE} agents sit on a panel.`)
    .refine((ids) => new Set(ids).size === ids.length, "An agent sits on a panel once: remove the one listed twice."),
  maxRounds: integer("Rounds", 1, 10).default(PANEL_DEFAULTS.maxRounds),
  tokenCap: integer("Token cap", 500, 1_000_000).default(PANEL_DEFAULTS.tokenCap),
  timeLimitSeconds: integer("Time limit", 10, 3_600).default(PANEL_DEFAULTS.timeLimitSeconds),
});

export type SavedPanelInput = z.infer<typeof savedPanelSchema>;

export interface SavedPanelView extends SavedPanelInput {
  id: string;
  /** Agents it names that no longer exist: asking it is refused until an admin fixes it. */
  missingAgents: number;
}

async function projectOfAdmin(prisma: Prisma, actor: SessionUser): Promise<string> {
  assertAdmin(actor);
  const project = await findPrimaryProject(prisma, { userId: actor.id });
  if (!project) throw new AppError("not_found", "You are not in a project.");
  return project.id;
}

export async function listSavedPanels(prisma: Prisma, { actor }: { actor: SessionUser }): Promise<{ panels: SavedPanelView[]; agents: { id: string; handle: string; displayName: string; enabled: boolean }[] }> {
  const projectId = await projectOfAdmin(prisma, actor);
  const [rows, agents] = await Promise.all([
    prisma.savedPanel.findMany({ where: { projectId }, orderBy: { handle: "asc" } }),
    prisma.agent.findMany({ where: { projectId, deletedAt: null }, orderBy: { displayName: "asc" }, select: { id: true, handle: true, displayName: true, enabled: true } }),
  ]);
  const panels = rows.map(({ id, handle, name, agentIds, maxRounds, tokenCap, timeLimitSeconds }) => ({
    id,
    handle,
    name,
    agentIds,
    maxRounds,
    tokenCap,
    timeLimitSeconds,
    missingAgents: agentIds.filter((agentId) => !agents.some((agent) => agent.id === agentId)).length,
  }));
  return { panels, agents };
}

/** Creates (no id) or replaces a saved panel; its handle must not be a person's or an agent's. */
export async function saveSavedPanel(prisma: Prisma, { actor, id, input }: { actor: SessionUser; id?: string; input: SavedPanelInput }): Promise<void> {
  const projectId = await projectOfAdmin(prisma, actor);
  const [agents, person, agent] = await Promise.all([
    prisma.agent.count({ where: { projectId, id: { in: input.agentIds } } }),
    prisma.user.findFirst({ where: { handle: input.handle, memberships: { some: { projectId } } }, select: { id: true } }),
    prisma.agent.findFirst({ where: { projectId, handle: input.handle }, select: { id: true } }),
  ]);
  if (agents !== new Set(input.agentIds).size) throw new AppError("bad_request", "Some of those agents are not in this project.", { agentIds: "Some of those agents are not in this project." });
  if (person || agent) throw new AppError("bad_request", `@${input.handle} is already ${person ? "a person's" : "an agent's"} handle.`, { handle: `@${input.handle} is already ${person ? "a person's" : "an agent's"} handle.` });
  try {
    if (id) {
      const { count } = await prisma.savedPanel.updateMany({ where: { id, projectId }, data: input });
      if (count === 0) throw new AppError("not_found", "That panel does not exist.");
    } else {
      await prisma.savedPanel.create({ data: { id: randomUUID(), projectId, ...input } });
    }
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("bad_request", `A panel is already called @${input.handle}.`, { handle: `A panel is already called @${input.handle}.` });
    throw error;
  }
}

export async function deleteSavedPanel(prisma: Prisma, { actor, id }: { actor: SessionUser; id: string }): Promise<void> {
  const projectId = await projectOfAdmin(prisma, actor);
  await prisma.savedPanel.deleteMany({ where: { id, projectId } });
}
