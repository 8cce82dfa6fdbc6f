import type { Prisma } from "@/lib/db/open-database";
import { savedPanelRefusal } from "./panel-rules";

/** A saved panel as the composer offers it: its handle, name and the agents who sit on it. */
export interface PanelChoice {
  handle: string;
  name: string;
  agents: string[];
  /** Why asking it would be refused (an agent deleted or disabled), so the composer can say so first. */
  refusal: string | null;
}

/**
 * The saved panels of a conversation's project, for @completion in its composer. The caller has
 * already checked the reader takes part in the conversation.
 */
export async function listPanelChoices(prisma: Prisma, { projectId }: { projectId: string }): Promise<PanelChoice[]> {
  const [panels, agents] = await Promise.all([
    prisma.savedPanel.findMany({ where: { projectId }, orderBy: { handle: "asc" }, select: { handle: true, name: true, agentIds: true } }),
    prisma.agent.findMany({ where: { projectId, deletedAt: null }, select: { id: true, handle: true, displayName: true, enabled: true } }),
  ]);
  const byId = new Map(agents.map((agent) => [agent.id, agent]));
  return panels.map((panel) => {
    const seated = panel.agentIds.flatMap((id) => byId.get(id) ?? []);
    return { handle: panel.handle, name: panel.name, agents: seated.map((agent) => agent.displayName), refusal: savedPanelRefusal(panel, seated) };
  });
}
