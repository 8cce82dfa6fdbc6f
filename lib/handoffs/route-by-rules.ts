import { matchesPattern } from "@/lib/validation/safe-pattern";
import type { HandoffSettings } from "./handoff-settings";

/** The offline model's routing: the first rule whose pattern matches the message, or null. */
export function routeByRules(settings: Pick<HandoffSettings, "routes">, text: string): { agentId: string; pattern: string; index: number } | null {
  const index = settings.routes.findIndex((route) => matchesPattern(route.pattern, text));
  return index === -1 ? null : { ...settings.routes[index]!, index };
}
