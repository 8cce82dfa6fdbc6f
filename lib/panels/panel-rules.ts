/**
 * Who may sit on a panel, said the same way by the server that refuses a panel and by the
 * composer that warns before sending. Browser-safe.
 */

/** `@panel @toby @ada question`: the agents mentioned after it answer together. */
export const PANEL_HANDLE = "panel";

/** Every agent of a panel works on each round at once: more would multiply a question's cost. */
export const MAX_PANEL_SIZE = 8;

export interface PanelSeat {
  handle: string;
  enabled: boolean;
}

/** Why `@panel` with these agents of the conversation (in the order mentioned) cannot sit, or null. */
export function adHocPanelRefusal(seats: PanelSeat[]): string | null {
  const disabled = seats.find((seat) => !seat.enabled);
  if (disabled) return `@${disabled.handle} is disabled and cannot sit on a panel.`;
  if (seats.length < 2) return 'A panel needs at least two agents of this conversation: mention them after @panel, e.g. "@panel @toby @ada your question".';
  if (seats.length > MAX_PANEL_SIZE) return `A panel seats at most ${MAX_PANEL_SIZE} agents; this one names ${seats.length}. Ask fewer agents.`;
  return null;
}

/** Why a saved panel cannot sit with the agents of it that still exist, or null. */
export function savedPanelRefusal(panel: { handle: string; agentIds: string[] }, seats: PanelSeat[]): string | null {
  if (seats.length < new Set(panel.agentIds).size) return `The panel @${panel.handle} names an agent that no longer exists: ask an admin to update it.`;
  const disabled = seats.find((seat) => !seat.enabled);
  if (disabled) return `The panel @${panel.handle} includes @${disabled.handle}, which is disabled: ask an admin to update the panel or enable the agent.`;
  return null;
}
