import { log } from "@/lib/log/logger";

/** The abort reason when the node is shutting down: the job is released for another node. */
export const NODE_STOPPING = "chorus:node-stopping";
/** The abort reason when the lease was lost: another attempt owns the job now. */
export const LEASE_LOST = "chorus:lease-lost";

/** Thrown by a holder's write that the database refused: its attempt no longer owns the job. */
export class LeaseLost extends Error {
  constructor(readonly kind: string, readonly id: string, readonly attempt: number) {
    super(`The lease on ${kind} ${id} (attempt ${attempt}) is lost.`);
    this.name = "LeaseLost";
  }
}

/**
 * Thrown by a job that cannot go on now but has not failed (a provider's rate limit): it is given
 * back to wait `delayMs`, not counted as a failure, and holds no slot meanwhile.
 */
export class RetryLater extends Error {
  constructor(
    readonly delayMs: number,
    readonly reason: string,
  ) {
    super(reason);
    this.name = "RetryLater";
  }
}

/**
 * One attempt's hold on a job. Work stops at once when `signal` aborts (lease lost, or the node
 * stopping); every side effect checks `held()` first and every database write carries
 * `attempt` (see leaseHolds), so a node that stalled past its lease neither emits nor writes.
 */
export interface Lease {
  readonly kind: string;
  readonly id: string;
  /** The fencing token: this claim's attempt number. */
  readonly attempt: number;
  readonly signal: AbortSignal;
  /** Milliseconds since the epoch, by this process's clock, after which the lease may be another's. */
  readonly expiresAt: number;
  /** False once lost: told so by the database, or found past its expiry by this process's clock. */
  held(): boolean;
  /** Throws LeaseLost (and aborts the work) unless held. */
  assertHeld(): void;
  /** A fenced write was refused: the lease is lost (logged once) and the work aborts. */
  lose(why: string): void;
  /** lose(why), then throws LeaseLost: for a write the rest of the work depends on. */
  refused(why: string): never;
}

/** The worker's side of a lease: it extends it after each renewal and ends it. */
export class HeldLease implements Lease {
  private readonly controller = new AbortController();
  private lost = false;
  /** The work is over: a renewal answered late cannot make it look lost. */
  private ended = false;

  constructor(
    readonly kind: string,
    readonly id: string,
    readonly attempt: number,
    public expiresAt: number,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  held(): boolean {
    // A process that was stopped (SIGSTOP, a long GC, a frozen VM) finds its time ran out before any timer could renew it.
    if (!this.lost && Date.now() >= this.expiresAt) this.lose("its time ran out before it was renewed");
    return !this.lost;
  }

  assertHeld(): void {
    if (!this.held()) throw new LeaseLost(this.kind, this.id, this.attempt);
  }

  /** Renewed by a statement sent at `sentAt`: the database's expiry is later than this one. */
  renewed(sentAt: number, leaseMs: number): void {
    if (!this.lost) this.expiresAt = sentAt + leaseMs;
  }

  refused(why: string): never {
    this.lose(why);
    throw new LeaseLost(this.kind, this.id, this.attempt);
  }

  /** Logged once: the work stops and nothing more is emitted or written. */
  lose(why: string): void {
    if (this.lost || this.ended) return;
    this.lost = true;
    log.warn("lease lost", { kind: this.kind, id: this.id, attempt: this.attempt, why });
    this.controller.abort(LEASE_LOST);
  }

  /** The node is stopping: the work ends, the lease is still held until released. */
  stop(): void {
    this.controller.abort(NODE_STOPPING);
  }

  end(): void {
    this.ended = true;
  }
}

/**
 * `target` with every method call dropped once the lease is lost: a job's events (deltas,
 * typing, progress) go through it, so a node that lost its lease emits nothing more.
 */
export function whileHeld<T extends object>(target: T, lease: Lease): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      const value: unknown = Reflect.get(object, property, receiver);
      if (typeof value !== "function") return value;
      return (...args: unknown[]) => (lease.held() ? (value as (...a: unknown[]) => unknown).apply(object, args) : undefined);
    },
  });
}

/** A job's dependencies with its publisher quiet once the lease is lost (see whileHeld). */
export function publishingWhileHeld<Deps extends { publisher(): object }>(deps: Deps, lease: Lease): Deps {
  return { ...deps, publisher: () => whileHeld(deps.publisher(), lease) };
}

/**
 * Calls `stop` once when the lease's work must end, at once if it already has: a listener added
 * to an aborted signal is never called, and work that waits for it would wait forever. Returns
 * the way to stop listening.
 */
export function onLeaseEnd(lease: Pick<Lease, "signal">, stop: () => void): () => void {
  if (lease.signal.aborted) {
    queueMicrotask(stop);
    return () => {};
  }
  lease.signal.addEventListener("abort", stop, { once: true });
  return () => lease.signal.removeEventListener("abort", stop);
}

/** True when the error (or the abort that caused it) means the lease was lost or the node is stopping: not a failure of the job. */
export function endedByLease(lease: Lease, error: unknown): boolean {
  return error instanceof LeaseLost || (lease.signal.aborted && (lease.signal.reason === LEASE_LOST || lease.signal.reason === NODE_STOPPING));
}
