import { log } from "@/lib/log/logger";
import { AppError, INTERNAL_ERROR_MESSAGE } from "./app-error";
import { databaseUnavailableReason } from "./database-unavailable";

/** How long a client is asked to wait (Retry-After) when the database cannot be reached. */
export const DATABASE_RETRY_AFTER_S = 5;

/**
 * What a boundary (route handler, server action, socket ack) tells its client about a failure,
 * the one mapping they all share: an AppError as thrown; a database that cannot be reached as
 * `unavailable` (503: retry), a warning in the log since it is not a bug; anything else is a
 * bug, logged with `failed` and its context and reported as `internal` without details.
 */
export function toClientError(error: unknown, failed: string, context: Record<string, unknown>): AppError {
  if (error instanceof AppError) return error;
  const unreachable = databaseUnavailableReason(error);
  if (unreachable) {
    log.warn(`${failed}: database unavailable`, { ...context, reason: unreachable });
    return new AppError("unavailable", `Database unavailable, retry in ${DATABASE_RETRY_AFTER_S} seconds.`);
  }
  log.error(failed, { ...context, error });
  return new AppError("internal", INTERNAL_ERROR_MESSAGE);
}
