import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { claimNextDispatch, renewLease, type ClaimedDispatch } from "./claim-dispatch";

export interface DispatchWorkerOptions {
  prisma: Prisma;
  /** Runs one agent turn; must finish the dispatch (done or failed) itself. */
  runTurn(job: ClaimedDispatch): Promise<void>;
  /** Called instead of runTurn when a dispatch has used up its attempts. */
  giveUp(job: ClaimedDispatch): Promise<void>;
  leaseMs?: number;
  /** Other nodes' dispatches and expired leases are found by polling. */
  pollMs?: number;
  maxAttempts?: number;
  concurrency?: number;
}

export interface DispatchWorker {
  /** Look for work now (after a message was posted here). */
  wake(): void;
  stop(): Promise<void>;
}

export function startDispatchWorker(options: DispatchWorkerOptions): DispatchWorker {
  const { prisma, leaseMs = 60_000, pollMs = 1_000, maxAttempts = 3, concurrency = 4 } = options;
  const running = new Set<Promise<void>>();
  let draining = false;
  let again = false;
  let stopped = false;

  const run = async (job: ClaimedDispatch) => {
    const heartbeat = setInterval(() => void renewLease(prisma, { ...job, leaseMs }).catch(() => undefined), leaseMs / 3);
    try {
      if (job.attempts > maxAttempts) await options.giveUp(job);
      else await options.runTurn(job);
    } catch (error) {
      // The lease lapses and another attempt is made (at most maxAttempts).
      log.error("agent turn failed", { dispatchId: job.id, agentId: job.agentId, attempt: job.attempts, error });
    } finally {
      clearInterval(heartbeat);
    }
  };

  const drain = async () => {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    try {
      do {
        again = false;
        while (!stopped && running.size < concurrency) {
          const job = await claimNextDispatch(prisma, { leaseMs });
          if (!job) break;
          const task = run(job).finally(() => {
            running.delete(task);
            if (!stopped) void drain();
          });
          running.add(task);
        }
      } while (again && !stopped);
    } catch (error) {
      log.error("dispatch claim failed", { error });
    } finally {
      draining = false;
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
      await Promise.allSettled([...running]);
    },
  };
}
