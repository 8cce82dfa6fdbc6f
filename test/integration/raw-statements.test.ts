import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { rawExecute, rawRows } from "@/lib/db/raw-statements";
import { sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";

/**
 * The statements a turn waits on skip Prisma (lib/db/raw-statements.ts): what they read and write
 * must be what Prisma reads and writes, on either database, and tests counting statements must
 * still see them.
 */
describe("raw statements straight to the driver", () => {
  let db: Database;
  const statements: string[] = [];
  let conversationId: string;

  beforeAll(async () => {
    db = await createTestDatabase({ onQuery: (statement) => statements.push(statement) });
    conversationId = (await createProjectWithChannel(db.prisma)).channel.id;
  });
  afterAll(() => db.close());
  afterEach(() => vi.restoreAllMocks());

  // The column types the hot statements return, with a timestamp parameter (not midnight, not whole seconds).
  const moment = new Date(Date.UTC(2026, 10, 27, 21, 45, 12, 345));
  const statement = () => sql`
    SELECT 'text' AS "text", 42::int AS "int", 0.25::float8 AS "float", true AS "bool", 'running'::"DispatchStatus" AS "enum",
           (${moment}::timestamp(3) AT TIME ZONE 'UTC') AS "at", json_build_object('a', ARRAY[1, 2], 'b', NULL) AS "json",
           '{"c": "d"}'::jsonb AS "jsonb", ARRAY['x', 'y,z', NULL] AS "texts", ARRAY[]::text[] AS "none", NULL::text AS "nothing"`;

  it("reads every column type they return as Prisma does", async () => {
    const driver = vi.spyOn(db.sql, "query");
    const direct = await rawRows(db.prisma, statement());
    expect(driver).toHaveBeenCalledTimes(1);
    expect(direct).toEqual(await db.prisma.$queryRaw(statement()));
    expect(direct).toEqual([{ text: "text", int: 42, float: 0.25, bool: true, enum: "running", at: moment, json: { a: [1, 2], b: null }, jsonb: { c: "d" }, texts: ["x", "y,z", null], none: [], nothing: null }]);
  });

  it("writes dates as UTC and counts the rows a write changed, as Prisma does", async () => {
    const driver = vi.spyOn(db.sql, "execute");
    const marked = (at: Date) => sql`UPDATE "conversations" SET "updatedAt" = ${at} WHERE "id" = ${conversationId}`;
    expect(await rawExecute(db.prisma, marked(moment))).toBe(1);
    expect(driver).toHaveBeenCalledTimes(1);
    const stored = await db.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { updatedAt: true } });
    expect(stored.updatedAt).toEqual(moment);
    expect(await rawExecute(db.prisma, sql`UPDATE "conversations" SET "updatedAt" = now() WHERE "id" = 'none'`)).toBe(0);
  });

  it("is seen by whoever counts statements, and inside a transaction goes through the transaction", async () => {
    statements.length = 0;
    await rawRows(db.prisma, sql`SELECT 'counted' AS "seen"`);
    expect(statements).toEqual([`SELECT 'counted' AS "seen"`]);
    // Inside the transaction: it sees the transaction's own uncommitted write.
    const driver = vi.spyOn(db.sql, "query");
    const seen = await db.prisma.$transaction(async (tx) => {
      await tx.$executeRaw`UPDATE "conversations" SET "topic" = 'in the transaction' WHERE "id" = ${conversationId}`;
      return rawRows<{ topic: string }>(tx, sql`SELECT "topic" FROM "conversations" WHERE "id" = ${conversationId}`);
    });
    expect(seen).toEqual([{ topic: "in the transaction" }]);
    expect(driver).not.toHaveBeenCalled();
  });
});
