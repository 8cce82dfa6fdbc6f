import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { claimJob, deferJob, releaseJob, renewJob, retryJob, type JobTable } from "./job-table";
import { endedByLease, HeldLease, NODE_STOPPING, RetryLater, type Lease } from "./lease";

/**
 * How long stop() waits for its jobs after telling them to stop. A job that ignores its signal is
 * named in the log and left behind: its lease lapses and another node takes it, and every write it
 * might still attempt is fenced, so the node can exit on time.
 */
const STOP_WAIT_MS = 5_000;

/** What every claimed job has: its row id, this claim's attempt, the failures before it and why the last one failed. */
export interface ClaimedJob {
  id: string;
  attempt: number;
  failures: number;
  lastError?: string | null;
}

export interface LeasedWorkerOptions<Job extends ClaimedJob> {
  prisma: Prisma;
  table: JobTable;
  /** Claims one runnable job: among these ids when given, any otherwise. By default the oldest runnable one (claimJob). */
  claim?(options: { leaseMs: number; among?: string[] }): Promise<Job | null>;
  /** Does the work; its last write finishes the job, fenced by the lease (updateHeldJob, leaseHolds). */
  run(job: Job, lease: Lease): Promise<void>;
  /** The job failed `maxFailures` times: its final, fenced write says why (`reason`: the last error). */
  giveUp(job: Job, lease: Lease, reason: unknown): Promise<void>;
  leaseMs?: number;
  /** Other nodes' jobs, retries and expired leases are found by polling. */
  pollMs?: number;
  concurrency?: number;
  maxFailures?: number;
  /** Retries wait baseMs, 2×, 4×… up to maxMs (each with jitter). */
  backoff?: { baseMs: number; maxMs: number };
  /** Jobs that are waiting: named by a wake but not claimable now, or given back to wait (RetryLater). */
  onWaiting?(ids: string[]): void;
  /** Where a running job is in its work, for the log of one that did not stop. */
  phaseOf?(id: string): string | undefined;
}

/** A place in a worker for a job claimed by a statement of someone else's: a post that claims the turn it writes. */
export interface WorkerSlot<Job extends ClaimedJob> {
  /** The lease to claim with: it lasts this long from when the claiming statement was sent. */
  leaseMs: number;
  /** Runs the job claimed for this place, under a lease expiring at `expiresAt`. */
  fill(job: Job, expiresAt: number): void;
  /** Nothing was claimed for it. */
  release(): void;
}

export interface LeasedWorker<Job extends ClaimedJob> {
  /** Look for work now: these jobs were just written here (all runnable work when omitted). */
  wake(ids?: string[]): void;
  /** Runs a job this node already holds (written active under a lease expiring at `expiresAt`), without a claim. */
  adopt(job: Job, expiresAt: number): void;
  /** Holds a place for a job another statement will claim: null when the node is full or stopping. */
  reserve(): WorkerSlot<Job> | null;
  /** Stops claiming, stops the running jobs and gives them back for another node to take at once. */
  stop(): Promise<void>;
}

/**
 * The one leased-job loop (dispatch, panels, ingestion, session ends): claims with SKIP LOCKED
 * and a lease, renews it every third of its length and aborts the work the moment it is lost
 * (the database refused the renewal, or this process's clock says it ran out: a stalled node
 * wakes up with nothing it may still do); retries failures with backoff; gives up with the
 * reason after `maxFailures`; releases its jobs when the node stops.
 */
export function startLeasedWorker<Job extends ClaimedJob>(options: LeasedWorkerOptions<Job>): LeasedWorker<Job> {
  const { prisma, table, leaseMs = 30_000, pollMs = 1_000, concurrency = 4, maxFailures = 3, backoff = { baseMs: 2_000, maxMs: 5 * 60_000 } } = options;
  const claim = options.claim ?? ((claiming) => claimJob<Job>(prisma, table, { leaseMs: claiming.leaseMs, order: sql`d."createdAt"` }));
  const running = new Map<Promise<void>, HeldLease>();
  /** Places held for jobs being claimed by other statements (reserve): they count as running. */
  let reserved = 0;
  const full = () => running.size + reserved >= concurrency;
  let draining = false;
  /** Settles when the claims under way end: stop() waits for it. */
  let drained = Promise.resolve();
  let stopped = false;
  /** A sweep of every runnable job was asked for (poll, a finished job, start-up). */
  let sweep = false;
  /** Jobs just written on this node: claimed by id, no sweep needed. */
  const wanted = new Set<string>();
  /** Counts requests, so one that arrives during an empty claim is not lost. */
  let requests = 0;

  const heartbeat = async (lease: HeldLease) => {
    if (!lease.held()) return;
    const sentAt = Date.now();
    try {
      if (await renewJob(prisma, table, lease, leaseMs)) lease.renewed(sentAt, leaseMs);
      else lease.lose("another attempt took it over, or it was finished or deleted");
    } catch (error) {
      // The database is unreachable: keep working while the lease lasts; its time running out stops the work.
      log.warn("lease renewal failed", { kind: table.kind, id: lease.id, attempt: lease.attempt, error });
    }
  };

  const failed = async (job: Job, lease: HeldLease, error: unknown) => {
    const failures = job.failures + 1;
    log.error(`${table.kind} failed`, { id: job.id, attempt: job.attempt, failures, error });
    if (!lease.held()) return;
    if (failures >= maxFailures) return options.giveUp(job, lease, error);
    const delayMs = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failures - 1)) * (0.5 + Math.random() / 2);
    await retryJob(prisma, table, lease, { delayMs, error: describe(error) });
  };

  const work = async (job: Job, lease: HeldLease) => {
    const beat = setInterval(() => void heartbeat(lease), leaseMs / 3);
    try {
      if (job.failures >= maxFailures) await options.giveUp(job, lease, job.lastError ?? "its worker stopped answering");
      else await options.run(job, lease);
    } catch (error) {
      if (error instanceof RetryLater) {
        if (lease.held() && (await deferJob(prisma, table, lease, error).catch((cause: unknown) => log.error(`${table.kind} not deferred`, { id: job.id, error: cause })))) {
          options.onWaiting?.([job.id]);
        }
      } else if (!endedByLease(lease, error)) await failed(job, lease, error).catch((cause: unknown) => log.error(`${table.kind} failure not recorded`, { id: job.id, error: cause }));
    } finally {
      clearInterval(beat);
      // Given back for another node to take at once (a finished job is left alone: the release is fenced).
      if (lease.signal.reason === NODE_STOPPING && lease.held()) await releaseJob(prisma, table, lease).catch((error: unknown) => log.warn(`${table.kind} not released`, { id: job.id, error }));
      lease.end();
    }
  };

  const start = (job: Job, lease: HeldLease) => {
    const task = work(job, lease).finally(() => {
      running.delete(task);
      if (!stopped) void drain();
    });
    running.set(task, lease);
  };

  /** Runs a claimed job, or gives it back for another node to run at once when this one began stopping meanwhile. */
  const begin = async (job: Job, lease: HeldLease) => {
    if (stopped) await releaseJob(prisma, table, lease);
    else start(job, lease);
  };

  /** Claims runnable jobs within the concurrency: the ones named, or any. */
  const drain = async (ids?: string[]) => {
    if (ids) ids.forEach((id) => wanted.add(id));
    else sweep = true;
    // The node is full: these wait for a place (claimed when a running job ends or a reserved place is given back).
    if (ids && full()) options.onWaiting?.(ids);
    requests += 1;
    await claimWanted();
  };

  /** The claims asked for (drain), one at a time, while the node has room. */
  const claimWanted = async () => {
    if (draining) return;
    draining = true;
    let settle!: () => void;
    drained = new Promise((resolve) => (settle = resolve));
    try {
      while (!stopped && !full() && (sweep || wanted.size > 0)) {
        const requestsBefore = requests;
        const sentAt = Date.now();
        const job = await claim({ leaseMs, among: sweep ? undefined : [...wanted] });
        if (job) {
          wanted.delete(job.id);
          await begin(job, new HeldLease(table.kind, job.id, job.attempt, sentAt + leaseMs));
        } else if (requests === requestsBefore) {
          // Nothing runnable: a named job may wait behind another, whose end sweeps again.
          if (wanted.size > 0) options.onWaiting?.([...wanted]);
          sweep = false;
          wanted.clear();
        }
      }
    } catch (error) {
      log.error(`${table.kind} claim failed`, { error });
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
    wake: (ids) => void drain(ids),
    adopt(job, expiresAt) {
      // A stopping node leaves it to its lease: another node takes it when the lease lapses.
      if (!stopped) start(job, new HeldLease(table.kind, job.id, job.attempt, expiresAt));
    },
    reserve() {
      if (stopped || full()) return null;
      reserved += 1;
      let held = true;
      const free = () => {
        if (held) reserved -= 1;
        held = false;
      };
      return {
        leaseMs,
        fill(job, expiresAt) {
          free();
          void begin(job, new HeldLease(table.kind, job.id, job.attempt, expiresAt)).catch((error: unknown) => log.warn(`${table.kind} not released`, { id: job.id, error }));
        },
        release() {
          free();
          // Jobs named while this place was held wait for it.
          if (!stopped && (sweep || wanted.size > 0)) void claimWanted();
        },
      };
    },
    async stop() {
      stopped = true;
      clearInterval(poll);
      // A claim under way finishes first (and gives back what it took), so no job starts after stop().
      await drained;
      for (const lease of running.values()) lease.stop();
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        Promise.allSettled([...running.keys()]).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), STOP_WAIT_MS))),
      ]);
      clearTimeout(timer);
      if (!waited) log.error(`${table.kind} did not stop: left to its lease`, { jobs: [...running.values()].map(({ id, attempt }) => ({ id, attempt, phase: options.phaseOf?.(id) })), waitedMs: STOP_WAIT_MS });
    },
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
