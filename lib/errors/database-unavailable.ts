/**
 * Recognises a database that cannot be reached (down, restarting, refusing or dropping
 * connections, out of connections, its pool timing out), as opposed to a bug or a refused write:
 * the client should hear "retry", not "something went wrong". Recognised by shape, with no import
 * of Prisma or pg, from what they were seen to throw (test/integration/database-unavailable.test.ts):
 * - Prisma over the pg adapter: the adapter's error kind in `meta.driverAdapterError.cause.kind`
 *   (model queries also get a P1xxx code; raw queries only P2010 with that kind), or Prisma's
 *   own codes for connection and pool timeouts;
 * - pg itself (the SQL driver, or what the adapter passes through): a failed socket connect, a
 *   server error of the connection classes, or pg's own words for a connection that died or
 *   never came up.
 */

/** The pg adapter's kinds for a connection that failed (see @prisma/adapter-pg convertDriverError). */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "DatabaseDoesNotExist", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
/** Can't reach, timed out, database gone, operations timed out, connection closed, pool timeout, too many connections. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1003", "P1008", "P1017", "P2024", "P2037"]);
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ENOTFOUND", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN", "EPIPE"]);
/** SQLSTATEs: connection exceptions (08…), shutdown or start-up (57P0x), too many connections, no such database. */
const SQLSTATE = /^(08...|57P0[1-3]|53300|3D000)$/;
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

type Shape = {
  code?: unknown;
  syscall?: unknown;
  severity?: unknown;
  message?: unknown;
  meta?: { driverAdapterError?: { cause?: { kind?: unknown; code?: unknown } } };
  cause?: unknown;
};

/**
 * What shows the database is unreachable (for the log: a kind, code or pg message), or null.
 * Causes are followed a few levels: better-auth, for one, reports a failed session lookup as its
 * own error with the database's as `cause`.
 */
export function databaseUnavailableReason(error: unknown): string | null {
  let current = error;
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth += 1) {
    const reason = reasonIn(current as Shape, depth === 0);
    if (reason) return reason;
    current = (current as Shape).cause;
  }
  return null;
}

function reasonIn(shape: Shape, outermost: boolean): string | null {
  const adapter = shape.meta?.driverAdapterError?.cause;
  if (typeof adapter?.kind === "string" && ADAPTER_KINDS.has(adapter.kind)) return adapter.kind;
  // Server errors the adapter has no kind for (a backend terminated mid-query) keep their SQLSTATE.
  if (typeof adapter?.code === "string" && SQLSTATE.test(adapter.code)) return adapter.code;
  if (typeof shape.code !== "string") return typeof shape.message === "string" && PG_MESSAGES.test(shape.message) ? shape.message : null;
  if (PRISMA_CODES.has(shape.code)) return shape.code;
  // Only pg's server errors carry a severity.
  if (typeof shape.severity === "string" && SQLSTATE.test(shape.code)) return shape.code;
  // pg throws a failed connect as it is; a model provider's client wraps its own, which is not the database's.
  if (outermost && typeof shape.syscall === "string" && SOCKET_CODES.has(shape.code)) return shape.code;
  return null;
}
