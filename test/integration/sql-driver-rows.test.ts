import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { createTestDatabase } from "../support/test-database";

/** The driver's row-by-row reading (exact vector search's scan), on either engine. */
describe("reading rows one at a time", () => {
  let db: Database;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db.close());

  it("hands over every row, in order, with the statement's parameters", async () => {
    const rows: { n: number; label: string }[] = [];
    await db.sql.forEachRow<{ n: number; label: string }>("SELECT n, 'row ' || n AS label FROM generate_series(1, $1::int) AS n ORDER BY n", [2_500], (row) => rows.push(row));
    expect(rows).toHaveLength(2_500);
    expect(rows[0]).toEqual({ n: 1, label: "row 1" });
    expect(rows.at(-1)).toEqual({ n: 2_500, label: "row 2500" });
  });

  it("fails with the statement's error, or with the first error of the caller's function, and the driver goes on working", async () => {
    await expect(db.sql.forEachRow("SELECT * FROM no_such_table", [], () => undefined)).rejects.toThrow(/no_such_table/);
    let seen = 0;
    const reading = db.sql.forEachRow("SELECT n FROM generate_series(1, 100) AS n", [], () => {
      seen++;
      throw new Error(`stop at ${seen}`);
    });
    await expect(reading).rejects.toThrow("stop at 1");
    expect(seen).toBe(1);
    expect(await db.sql.query("SELECT 1 AS one")).toEqual([{ one: 1 }]);
  });
});
