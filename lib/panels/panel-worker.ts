import type { Prisma } from "@/lib/db/open-database";
import type { Lease } from "@/lib/jobs/lease";
import { startLeasedWorker, type ClaimedJob, type LeasedWorker } from "@/lib/jobs/leased-worker";
import { panelTable } from "./panel-table";

export type PanelWorker = LeasedWorker<ClaimedJob>;

/**
 * Runs the panels that need a coordinator, each on exactly one node (lib/jobs): a panel whose
 * node died or stalled is taken up by another when its lease lapses, and the stalled one can no
 * longer write. `coordinate` must return when the lease's signal aborts; `giveUp` ends a panel
 * whose coordination kept failing.
 */
export function startPanelWorker({
  prisma,
  coordinate,
  giveUp,
  leaseMs = 30_000,
  pollMs = 2_000,
}: {
  prisma: Prisma;
  coordinate: (panelId: string, lease: Lease) => Promise<void>;
  giveUp: (panelId: string, lease: Lease, reason: unknown) => Promise<void>;
  leaseMs?: number;
  pollMs?: number;
}): PanelWorker {
  return startLeasedWorker({
    prisma,
    table: panelTable,
    run: (job, lease) => coordinate(job.id, lease),
    giveUp: (job, lease, reason) => giveUp(job.id, lease, reason),
    leaseMs,
    pollMs,
    concurrency: 16,
    maxFailures: 3,
    backoff: { baseMs: 1_000, maxMs: 15_000 },
  });
}
