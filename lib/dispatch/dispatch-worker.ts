import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { claimNextDispatch, releaseDispatch, renewLease, type ClaimedDispatch } from "./claim-dispatch";

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
  /** Look for work now: these dispatches were just written here (all runnable work if omitted). */
  wake(dispatchIds?: string[]): void;
  /**
   * Runs a dispatch this node already holds (written running, with a lease): a handoff's next
   * turn starts at once, without a claim. It takes the place of the turn that handed it over.
   */
  adopt(job: ClaimedDispatch): void;
  stop(): Promise<void>;
}

export function startDispatchWorker(options: DispatchWorkerOptions): DispatchWorker {
  const { prisma, leaseMs = 60_000, pollMs = 1_000, maxAttempts = 3, concurrency = 4 } = options;
  const running = new Set<Promise<void>>();
  let draining = false;
  /** Settles when the claims under way end: stop() waits for it. */
  let drained = Promise.resolve();
  let stopped = false;
  /** A sweep of every runnable dispatch was asked for (poll, a finished turn, start-up). */
  let sweep = false;
  /** Dispatches just written on this node: claimed by id, no sweep needed. */
  const wanted = new Set<string>();
  /** Counts requests, so one that arrives during an empty claim is not lost. */
  let requests = 0;

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

  const start = (job: ClaimedDispatch) => {
    const task = run(job).finally(() => {
      running.delete(task);
      if (!stopped) void drain();
    });
    running.add(task);
  };

  /**
   * Claims runnable dispatches within the concurrency: the ones named, or all of them. A wake
   * after a post names its dispatches: on an in-process database a broader search, or an extra
   * empty claim, would sit between the message and the agent's first token.
   */
  const drain = async (ids?: string[]) => {
    if (ids) ids.forEach((id) => wanted.add(id));
    else sweep = true;
    requests += 1;
    if (draining) return;
    draining = true;
    let settle!: () => void;
    drained = new Promise((resolve) => (settle = resolve));
    try {
      while (!stopped && running.size < concurrency && (sweep || wanted.size > 0)) {
        const requestsBefore = requests;
        const among = sweep ? undefined : [...wanted];
        const job = await claimNextDispatch(prisma, { leaseMs, among });
        if (job && stopped) {
          // Claimed as the node began stopping: given back for another node to run at once.
          await releaseDispatch(prisma, job);
        } else if (job) {
          wanted.delete(job.id);
          start(job);
        } else if (requests === requestsBefore) {
          // Nothing runnable: a named dispatch waits for its agent's earlier turn, whose end sweeps.
          sweep = false;
          wanted.clear();
        }
      }
    } catch (error) {
      log.error("dispatch claim failed", { error });
      sweep = false;
      wanted.clear();
    } finally {
      draining = false;
      settle();
    }
  };

  const poll = setInterval(() => void drain(), pollMs);
  poll.unref();
  void drain();

  return {
    wake: (dispatchIds) => void drain(dispatchIds),
    adopt: (job) => {
      // A stopping node leaves it to its lease: another node runs it when the lease lapses.
      if (!stopped) start(job);
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      // A claim under way finishes first, so no turn starts after stop().
      await drained;
      await Promise.allSettled([...running]);
    },
  };
}
