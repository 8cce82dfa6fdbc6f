import type { SpecialistAgent } from "@/lib/agents/load-turn-context";
import type { ClaimedDispatch } from "@/lib/dispatch/claim-dispatch";
import type { ContextSnapshot } from "@/lib/context/types";
import type { HandoffMode } from "./handoff-modes";
import { readHandoffSettings, type HandoffSettings } from "./handoff-settings";

export interface SpecialistTarget {
  agentId: string;
  handle: string;
  displayName: string;
  description: string;
  enabled: boolean;
  mode: HandoffMode;
  recentN: number;
  forkHistory: number;
}

export interface HandoffOptions {
  settings: HandoffSettings;
  /** The orchestrator's specialists in the project, disabled ones included (to say why a handoff is refused). */
  specialists: SpecialistTarget[];
  /** Whether this turn may hand off: an orchestrator with specialists, under its depth limit, not answering a refused handoff. */
  open: boolean;
  /** The snapshot's record, for orchestrators. */
  record: ContextSnapshot["handoff"];
}

const closed: Omit<HandoffOptions, "settings"> = { specialists: [], open: false, record: undefined };

/**
 * What this turn may hand off to: the orchestrator's specialists as they are now (the turn's
 * statement loaded them); at the depth limit the agent answers itself and the snapshot says so.
 */
export function handoffOptions({ agent, job }: { agent: { handoffSettings: unknown; specialistAgents: SpecialistAgent[] }; job: Pick<ClaimedDispatch, "depth" | "allowHandoff"> }): HandoffOptions {
  const settings = readHandoffSettings(agent.handoffSettings);
  if (!settings.orchestrator || settings.specialists.length === 0 || !job.allowHandoff) return { settings, ...closed };
  const stopped = job.depth >= settings.maxDepth;
  const rows = stopped ? [] : agent.specialistAgents;
  const specialists = settings.specialists.flatMap((specialist) => {
    const row = rows.find((candidate) => candidate.id === specialist.agentId);
    return row ? [{ ...specialist, handle: row.handle, displayName: row.displayName, description: row.description, enabled: row.enabled }] : [];
  });
  return {
    settings,
    specialists,
    open: !stopped && specialists.some((specialist) => specialist.enabled),
    record: { depth: job.depth, maxDepth: settings.maxDepth, specialists: specialists.filter((specialist) => specialist.enabled).map((specialist) => specialist.handle), ...(stopped ? { stopped: "depth" as const } : {}) },
  };
}
