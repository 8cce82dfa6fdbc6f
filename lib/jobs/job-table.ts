import { hostname } from "node:os";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { empty, raw, sql, type Sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Lease } from "./lease";

/** The tables whose rows are leased jobs: each has attempt, failures, leaseUntil, leasedBy, runAfter, lastError, updatedAt. */
export type LeasedTableName = "dispatches" | "panels" | "knowledge_documents" | "session_ends";

/** How one kind of job lives in its table. Conditions are over the row, unqualified. */
export interface JobTable {
  name: LeasedTableName;
  /** For logs: "agent turn", "panel", "ingestion", "session end". */
  kind: string;
  /** A row waiting for a worker (before its backoff is over, it is not claimed). */
  waiting: Sql;
  /** A row some attempt is working on: a holder's writes require it. */
  active: Sql;
  /** Set by a claim besides the lease, e.g. "status" = 'running'. */
  onClaim?: Sql;
  /** Set when it is given back or retried (waiting again), e.g. "status" = 'pending'. */
  onRelease?: Sql;
  /** Returned by a claim: at least "id", "attempt" and "failures". */
  columns: Sql;
}

/** A kind whose rows go pending → running (leased) → done or failed, with a `status` column. */
export function pendingRunningTable(name: LeasedTableName, kind: string, columns: Sql): JobTable {
  return { name, kind, waiting: sql`"status" = 'pending'`, active: sql`"status" = 'running'`, onClaim: sql`"status" = 'running'`, onRelease: sql`"status" = 'pending'`, columns };
}

/** This process, as recorded in the rows it holds. */
export const nodeName = `${hostname()}:${process.pid}`;

const table = (name: LeasedTableName) => raw(`"${name}"`);
const millis = (ms: number) => sql`now() + ${Math.round(ms)} * interval '1 millisecond'`;
const sets = (fragment: Sql | undefined) => (fragment ? sql`${fragment}, ` : empty);

/**
 * Takes one runnable row (waiting and past its backoff, or active with an expired lease: its
 * holder died or stalled, which counts as a failure) with SKIP LOCKED, so workers on every node
 * share the table without taking the same row. The attempt is incremented: it is the new
 * holder's fencing token. `filter` narrows the choice (over alias d), `order` picks first.
 */
export async function claimJob<Row>(
  prisma: Prisma,
  job: JobTable,
  { leaseMs, filter, order }: { leaseMs: number; filter?: Sql; order: Sql },
): Promise<Row | null> {
  const [row] = await prisma.$queryRaw<Row[]>`
    UPDATE ${table(job.name)} SET ${sets(job.onClaim)}"attempt" = "attempt" + 1,
      "failures" = "failures" + CASE WHEN "leaseUntil" IS NOT NULL THEN 1 ELSE 0 END,
      "leaseUntil" = ${millis(leaseMs)}, "leasedBy" = ${nodeName}, "updatedAt" = now()
    WHERE "id" = (
      SELECT d."id" FROM ${table(job.name)} d
      WHERE ((${job.waiting} AND (d."runAfter" IS NULL OR d."runAfter" <= now())) OR (${job.active} AND d."leaseUntil" < now()))
        ${filter ? sql`AND ${filter}` : empty}
      ORDER BY ${order} LIMIT 1 FOR UPDATE SKIP LOCKED)
    RETURNING ${job.columns}`;
  return row ?? null;
}

/** The holder's condition, for writes to the job's own row: `WHERE "id" = … AND <holds>`. */
function owned(job: JobTable, lease: Pick<Lease, "id" | "attempt">): Sql {
  return sql`"id" = ${lease.id} AND "attempt" = ${lease.attempt} AND ${job.active}`;
}

/**
 * For writes to other tables: true only while this attempt still holds the job. The job's row is
 * locked until the write commits, so a new claim cannot slip in between check and write. The lock
 * is the one an update takes (not a share lock): a write that also updates the row (a panel's
 * token count) would otherwise deadlock with a concurrent one of the same job, each holding a
 * share lock the other must wait for.
 */
export function leaseHolds(job: JobTable, lease: Pick<Lease, "id" | "attempt">): Sql {
  return sql`EXISTS (SELECT 1 FROM ${table(job.name)} WHERE ${owned(job, lease)} FOR NO KEY UPDATE)`;
}

/** A write for a leased job in another table (a snapshot, a panel turn): who writes, and the condition that it still holds the job. */
export interface Fence {
  attempt: number;
  holds: Sql;
}

export function fenceOf(job: JobTable, lease: Pick<Lease, "id" | "attempt">): Fence {
  return { attempt: lease.attempt, holds: leaseHolds(job, lease) };
}

/** Extends the lease; false when another attempt owns the job, or it was finished. */
export async function renewJob(prisma: Prisma, job: JobTable, lease: Pick<Lease, "id" | "attempt">, leaseMs: number): Promise<boolean> {
  return (await prisma.$executeRaw`UPDATE ${table(job.name)} SET "leaseUntil" = ${millis(leaseMs)}, "updatedAt" = now() WHERE ${owned(job, lease)}`) === 1;
}

/** Gives the job back (this node is stopping): runnable at once elsewhere, not counted as a failure. */
export async function releaseJob(prisma: Prisma, job: JobTable, lease: Pick<Lease, "id" | "attempt">): Promise<boolean> {
  return (
    (await prisma.$executeRaw`
      UPDATE ${table(job.name)} SET ${sets(job.onRelease)}"leaseUntil" = NULL, "leasedBy" = NULL, "updatedAt" = now() WHERE ${owned(job, lease)}`) === 1
  );
}

/** Waiting again after `delayMs` without a failure counted (the job asked to wait: RetryLater). */
export async function deferJob(prisma: Prisma, job: JobTable, lease: Pick<Lease, "id" | "attempt">, { delayMs, reason }: { delayMs: number; reason: string }): Promise<boolean> {
  return (
    (await prisma.$executeRaw`
      UPDATE ${table(job.name)} SET ${sets(job.onRelease)}"lastError" = ${reason.slice(0, 1_000)}, "runAfter" = ${millis(delayMs)},
        "leaseUntil" = NULL, "leasedBy" = NULL, "updatedAt" = now()
      WHERE ${owned(job, lease)}`) === 1
  );
}

/** A failed attempt: waiting again after `delayMs`, with one more failure and its reason. */
export async function retryJob(prisma: Prisma, job: JobTable, lease: Pick<Lease, "id" | "attempt">, { delayMs, error }: { delayMs: number; error: string }): Promise<boolean> {
  return (
    (await prisma.$executeRaw`
      UPDATE ${table(job.name)} SET ${sets(job.onRelease)}"failures" = "failures" + 1, "lastError" = ${error.slice(0, 1_000)},
        "runAfter" = ${millis(delayMs)}, "leaseUntil" = NULL, "leasedBy" = NULL, "updatedAt" = now()
      WHERE ${owned(job, lease)}`) === 1
  );
}

/**
 * A fenced update of the job's own row (finishing it, recording progress): `set` applies only
 * while this attempt holds it. Returns whether it did.
 */
export async function updateHeldJob(prisma: Prisma | Transaction, job: JobTable, lease: Pick<Lease, "id" | "attempt">, set: Sql): Promise<boolean> {
  return (await prisma.$executeRaw`UPDATE ${table(job.name)} SET ${set}, "updatedAt" = now() WHERE ${owned(job, lease)}`) === 1;
}

/** Inside a transaction: whether the fence still holds, locking the job's row until the transaction ends. */
export async function stillHolds(tx: Transaction, fence: Fence): Promise<boolean> {
  return (await tx.$queryRaw<{ held: number }[]>`SELECT 1 AS "held" WHERE ${fence.holds}`).length === 1;
}
