import type { SpecialistTarget } from "./handoff-options";
import type { HandoffRequest } from "./handoff-tool";
import type { HandoffMode } from "./handoff-modes";

/** A fork of a fork of a fork is the deepest; a further fork is refused. */
export const MAX_FORK_DEPTH = 3;

export type HandoffDecision =
  | { kind: "handoff"; target: SpecialistTarget; mode: HandoffMode; summary: string; reason: string }
  | { kind: "refused"; requested: string; why: string };

/**
 * Whether a handoff the model (or a routing rule) asked for may happen: only to one of the
 * orchestrator's enabled specialists, and a fork only while forks are not nested too deep.
 */
export function decideHandoff(
  specialists: SpecialistTarget[],
  request: HandoffRequest | { unreadable: string },
  { orchestrator, forkDepth }: { orchestrator: string; forkDepth: number },
): HandoffDecision {
  if ("unreadable" in request) return { kind: "refused", requested: "a specialist", why: request.unreadable };
  const target = specialists.find((specialist) => specialist.handle.toLowerCase() === request.target.toLowerCase());
  const known = specialists.filter((specialist) => specialist.enabled).map((specialist) => `@${specialist.handle}`);
  if (!target) return { kind: "refused", requested: `@${request.target}`, why: `it is not one of ${orchestrator}'s specialists (${known.join(", ") || "none available"})` };
  if (!target.enabled) return { kind: "refused", requested: `@${target.handle}`, why: `${target.displayName} is disabled` };
  const mode = request.mode ?? target.mode;
  if (mode === "fork" && forkDepth + 1 > MAX_FORK_DEPTH) {
    return { kind: "refused", requested: `@${target.handle}`, why: `forks may be nested at most ${MAX_FORK_DEPTH} deep, and this conversation is already a fork ${forkDepth} levels down` };
  }
  return { kind: "handoff", target, mode, summary: request.summary, reason: request.reason };
}

/** The refusal as the orchestrator's message in the conversation. */
export function refusalText(orchestrator: string, decision: Extract<HandoffDecision, { kind: "refused" }>): string {
  return `${orchestrator} could not hand off to ${decision.requested}: ${decision.why}. ${orchestrator} answers itself.`;
}
