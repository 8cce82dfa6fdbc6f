import type { Prisma } from "@/lib/db/open-database";
import { startLeasedWorker, type LeasedWorker, type WorkerSlot } from "@/lib/jobs/leased-worker";
import type { Lease } from "@/lib/jobs/lease";
import { claimNextDispatch, dispatchTable, type ClaimedDispatch, type DispatchClaim } from "./claim-dispatch";

/** A place on this node for the turn a post claims in its own statement: how to claim it, and where it then runs. */
export type TurnSlot = WorkerSlot<ClaimedDispatch> & DispatchClaim;

export interface DispatchWorker extends LeasedWorker<ClaimedDispatch> {
  /** A place for a turn its post will claim: null when this node is full or stopping (the post only wakes the worker). */
  reserveTurn(): TurnSlot | null;
}

export interface DispatchWorkerOptions {
  prisma: Prisma;
  /** Runs one agent turn; its reply (or handoff) finishes the dispatch, fenced by the lease. */
  runTurn(job: ClaimedDispatch, lease: Lease): Promise<void>;
  /** The dispatch failed too often: a visible reply says so. */
  giveUp(job: ClaimedDispatch, lease: Lease): Promise<void>;
  leaseMs?: number;
  pollMs?: number;
  maxAttempts?: number;
  /** Turns this node runs at once (AGENT_TURNS_PER_NODE). */
  concurrency?: number;
  /** The OpenAI-compatible provider's turns in flight on all nodes (PROVIDER_MAX_CONCURRENT; 0: no limit). */
  providerLimit?: number;
  /** Other nodes claim from the same PostgreSQL (not the embedded database): the provider's limit is counted under a lock. */
  sharedDatabase?: boolean;
  /** Turns that wait: just posted but not claimable now, or given back to wait for their provider. */
  onWaiting?(dispatchIds: string[]): void;
  /** Where a running turn is (RunningTurns), for the log of one that did not stop. */
  phaseOf?(dispatchId: string): string | undefined;
}

/** Agent turns on the leased-job loop (lib/jobs): a busy agent's turns run in order. */
export function startDispatchWorker({ prisma, runTurn, giveUp, leaseMs = 60_000, pollMs = 1_000, maxAttempts = 3, concurrency = 64, providerLimit = 0, sharedDatabase = false, onWaiting, phaseOf }: DispatchWorkerOptions): DispatchWorker {
  const worker = startLeasedWorker({
    prisma,
    table: dispatchTable,
    claim: (options) => claimNextDispatch(prisma, { ...options, providerLimit, sharedDatabase }),
    run: runTurn,
    giveUp: (job, lease) => giveUp(job, lease),
    leaseMs,
    pollMs,
    concurrency,
    maxFailures: maxAttempts,
    backoff: { baseMs: 1_000, maxMs: 30_000 },
    onWaiting,
    phaseOf,
  });
  return {
    ...worker,
    reserveTurn() {
      const slot = worker.reserve();
      return slot && { ...slot, providerLimit, sharedDatabase };
    },
  };
}
