import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { startLeasedWorker, type ClaimedJob } from "@/lib/jobs/leased-worker";
import { panelTable } from "@/lib/panels/panel-table";
import { createTestDatabase } from "../support/test-database";

/** A node's shutdown cannot be held by work that ignores its signal. */
describe("a leased worker stopping", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it("ends its jobs' work and returns; a job that ignores its signal is left to its lease instead of holding the node", async () => {
    const jobs: ClaimedJob[] = [
      { id: randomUUID(), attempt: 1, failures: 0 },
      { id: randomUUID(), attempt: 1, failures: 0 },
    ];
    const firstJob = jobs[0]!;
    const stopped: string[] = [];
    const worker = startLeasedWorker<ClaimedJob>({
      prisma: db.prisma,
      table: panelTable,
      claim: async () => jobs.shift() ?? null,
      run: (job, lease) =>
        // The first job stops when told; the second never looks at its signal.
        job === firstJob ? new Promise<void>((resolve) => lease.signal.addEventListener("abort", () => (stopped.push(job.id), resolve()))) : new Promise<void>(() => {}),
      giveUp: async () => {},
      leaseMs: 60_000,
      pollMs: 50,
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(jobs).toHaveLength(0);

    const started = Date.now();
    await worker.stop();
    expect(stopped).toEqual([firstJob.id]);
    const tookMs = Date.now() - started;
    // Bounded: well inside the 10 s a node gets to shut down.
    expect(tookMs).toBeGreaterThanOrEqual(4_500);
    expect(tookMs).toBeLessThan(7_000);
  }, 15_000);
});
