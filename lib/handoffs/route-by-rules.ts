import { matchesPattern } from "@/lib/validation/safe-pattern";
import type { HandoffSettings } from "./handoff-settings";

/** The routing rule that matched a message: its place in the list (0-based), its pattern and target. */
export interface RoutingMatch {
  index: number;
  pattern: string;
  agentId: string;
}

/**
 * The offline model's routing: the first rule whose pattern matches the message, or null. Patterns
 * run on RE2 (linear time, no clock), so the same message always gets the same answer.
 */
export function routeByRules(settings: Pick<HandoffSettings, "routes">, text: string): RoutingMatch | null {
  const index = settings.routes.findIndex((route) => matchesPattern(route.pattern, text));
  if (index === -1) return null;
  const { pattern, agentId } = settings.routes[index]!;
  return { index, pattern, agentId };
}
