import type { Prisma } from "@/lib/db/open-database";
import { isParticipant } from "@/lib/conversations/assert-participant";
import { AppError } from "@/lib/errors/app-error";
import { loadPanelState } from "./panel-store";
import { panelView, type PanelView } from "./panel-view";

/** A panel's card, for the participants of its conversation. */
export async function readPanel(prisma: Prisma, { userId, panelId }: { userId: string; panelId: string }): Promise<PanelView> {
  const state = await loadPanelState(prisma, panelId);
  if (!state || !(await isParticipant(prisma, { userId, conversationId: state.panel.conversationId }))) {
    throw new AppError("not_found", "There is no such panel, or you are not in its conversation.");
  }
  return panelView(state.panel, state.agents, state.turns, state.answers, state.votes);
}
