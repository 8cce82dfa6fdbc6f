import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { agentOfAdmin } from "@/lib/knowledge/upload-document";
import { readHandoffSettings, type HandoffSettings } from "./handoff-settings";
import { routeByRules } from "./route-by-rules";

export interface SpecialistCandidate {
  id: string;
  handle: string;
  displayName: string;
  enabled: boolean;
}

export interface HandoffSettingsView {
  settings: HandoffSettings;
  /** The project's other agents, any of which may be made a specialist. */
  candidates: SpecialistCandidate[];
}

export async function getHandoffSettings(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<HandoffSettingsView> {
  const agent = await agentOfAdmin(prisma, { actor, agentId });
  const [row, candidates] = await Promise.all([
    prisma.agent.findUniqueOrThrow({ where: { id: agent.id }, select: { handoffSettings: true } }),
    prisma.agent.findMany({ where: { projectId: agent.projectId, id: { not: agent.id } }, select: { id: true, handle: true, displayName: true, enabled: true }, orderBy: { displayName: "asc" } }),
  ]);
  return { settings: readHandoffSettings(row.handoffSettings), candidates };
}

/**
 * Saves an orchestrator's settings (already parsed by handoffSettingsSchema): every specialist
 * must be another agent of the same project. A refusal names the field, as the form shows it.
 */
export async function saveHandoffSettings(prisma: Prisma, { actor, agentId, settings }: { actor: SessionUser; agentId: string; settings: HandoffSettings }): Promise<HandoffSettings> {
  const agent = await agentOfAdmin(prisma, { actor, agentId });
  const ids = settings.specialists.map((specialist) => specialist.agentId);
  const found = await prisma.agent.findMany({ where: { projectId: agent.projectId, id: { in: ids } }, select: { id: true } });
  const fields: Record<string, string> = {};
  const exists = (agentId: string) => found.some((row) => row.id === agentId);
  settings.specialists.forEach((specialist, index) => {
    if (specialist.agentId === agent.id) fields[`specialists.${index}.agentId`] = `${agent.displayName} cannot hand off to itself.`;
    else if (!exists(specialist.agentId)) fields[`specialists.${index}.agentId`] = "That agent is not in this project (it may have been deleted): remove it.";
  });
  settings.routes.forEach((route, index) => {
    if (!exists(route.agentId)) fields[`routes.${index}.agentId`] = "This rule's specialist no longer exists: point the rule at another specialist or remove it.";
  });
  if (settings.orchestrator && settings.specialists.length === 0) fields.specialists = "An orchestrator needs at least one specialist.";
  if (Object.keys(fields).length > 0) throw new AppError("bad_request", Object.values(fields)[0]!, fields);
  await prisma.agent.update({ where: { id: agent.id }, data: { handoffSettings: settings } });
  return settings;
}

/** The admin form's "test this message": which rule (1-based) would route it, and to whom. */
export function testRoutingRules(settings: Pick<HandoffSettings, "routes">, message: string): { rule: number; agentId: string } | null {
  const route = routeByRules(settings, message);
  return route && { rule: route.index + 1, agentId: route.agentId };
}
