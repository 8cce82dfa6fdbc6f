import type { Sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import type { Prisma, Transaction } from "./open-database";
import type { SqlDriver } from "./sql-driver";

/**
 * The raw statements a turn waits on (posting with its claim, claiming and loading a turn, a
 * turn's searches, its snapshot and its reply, a panel turn's start and end) go straight to the
 * database's driver when they are not part of a transaction: Prisma's raw-query path costs about
 * 0.6 ms of JavaScript per statement over the driver's own on the embedded database, and more
 * after an idle moment (README, Performance). Inside `prisma.$transaction` they go through the
 * transaction's client.
 *
 * Only for statements whose columns are text, int4, float8, booleans, enums, timestamptz, JSON
 * or arrays of those: both drivers parse these as Prisma does. Timestamps without a time zone,
 * int8 and numeric they do not (pg reads a timestamp in the server's local zone, int8 as text).
 */
interface Route {
  driver: SqlDriver;
  onQuery?: (sql: string) => void;
}

const routes = new WeakMap<object, Route>();

/** Called once per database: its Prisma client's raw statements on the hot paths go to `driver`. */
export function routeRawStatements(prisma: Prisma, route: Route): void {
  routes.set(prisma, route);
}

/** The rows of a raw statement (see above for which). */
export async function rawRows<Row>(client: Prisma | Transaction, statement: Sql): Promise<Row[]> {
  const route = routes.get(client);
  if (!route) return client.$queryRaw<Row[]>(statement);
  route.onQuery?.(statement.text);
  return route.driver.query<Row>(statement.text, statement.values.map(driverValue));
}

/** How many rows a raw write changed. */
export async function rawExecute(client: Prisma | Transaction, statement: Sql): Promise<number> {
  const route = routes.get(client);
  if (!route) return client.$executeRaw(statement);
  route.onQuery?.(statement.text);
  return route.driver.execute(statement.text, statement.values.map(driverValue));
}

/** A value as Prisma would send it: dates as UTC, as Prisma stores them. */
export function driverValue(value: unknown): unknown {
  return value instanceof Date ? value.toISOString() : value;
}
