import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";

export interface PanelWorker {
  /** Look for panels to run now (one was just asked for). */
  wake(): void;
  /** Coordinators stop where they are and give their panels back, for another node to resume. */
  stop(): Promise<void>;
}

export const PANEL_NODE_STOPPING = "panel-node-stopping";

/**
 * Runs the panels that need a coordinator, each on exactly one node: a panel is leased
 * (SKIP LOCKED), the lease renewed while it runs, and a panel whose node died is taken up by
 * another when its lease lapses. `coordinate` must return when its signal aborts.
 */
export function startPanelWorker({
  prisma,
  coordinate,
  leaseMs = 30_000,
  pollMs = 2_000,
}: {
  prisma: Prisma;
  coordinate: (panelId: string, signal: AbortSignal) => Promise<void>;
  leaseMs?: number;
  pollMs?: number;
}): PanelWorker {
  const running = new Map<string, { controller: AbortController; done: Promise<void> }>();
  let stopped = false;
  let claiming = false;
  /** Settles when the claims under way end: stop() waits for it. */
  let claimed = Promise.resolve();
  let again = false;

  const claim = async () => {
    const [row] = await prisma.$queryRaw<{ id: string }[]>`
      UPDATE "panels" SET "leaseUntil" = now() + ${leaseMs} * interval '1 millisecond', "updatedAt" = now()
      WHERE "id" = (
        SELECT "id" FROM "panels"
        WHERE "status" = 'running' AND ("leaseUntil" IS NULL OR "leaseUntil" < now())
        ORDER BY "createdAt" LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING "id"`;
    return row?.id ?? null;
  };

  const run = (panelId: string) => {
    const controller = new AbortController();
    const renew = setInterval(async () => {
      const renewed = await prisma.$executeRaw`
        UPDATE "panels" SET "leaseUntil" = now() + ${leaseMs} * interval '1 millisecond' WHERE "id" = ${panelId} AND "status" = 'running'`.catch(() => 0);
      if (renewed === 0 && !controller.signal.aborted) controller.abort("lease lost");
    }, leaseMs / 3);
    const done = coordinate(panelId, controller.signal)
      .catch((error: unknown) => log.error("panel coordination failed", { panelId, error }))
      .finally(() => {
        clearInterval(renew);
        running.delete(panelId);
        if (!stopped) void drain();
      });
    running.set(panelId, { controller, done });
  };

  const release = (ids: string[]) =>
    ids.length === 0 ? undefined : prisma.panel.updateMany({ where: { id: { in: ids }, status: "running" }, data: { leaseUntil: null } }).catch(() => undefined);

  const drain = async () => {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    let settle!: () => void;
    claimed = new Promise((resolve) => (settle = resolve));
    try {
      do {
        again = false;
        for (let id = await claim(); id; id = stopped ? null : await claim()) {
          // Claimed as the node began stopping: given back rather than held for a whole lease.
          if (stopped) await release([id]);
          else run(id);
        }
      } while (again && !stopped);
    } catch (error) {
      log.error("panel claim failed", { error });
    } finally {
      claiming = false;
      settle();
    }
  };

  const poll = setInterval(() => void drain(), pollMs);
  poll.unref();
  void drain();

  return {
    wake: () => void drain(),
    async stop() {
      stopped = true;
      clearInterval(poll);
      // A claim under way finishes first, so nothing touches the database after stop().
      await claimed;
      const active = [...running.entries()];
      for (const [, { controller }] of active) controller.abort(PANEL_NODE_STOPPING);
      await Promise.allSettled(active.map(([, { done }]) => done));
      // Given back at once rather than when the lease lapses.
      await release(active.map(([id]) => id));
    },
  };
}
