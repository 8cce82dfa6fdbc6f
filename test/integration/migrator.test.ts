import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { defaultMigrationsDir, migrate, migrationChecksum, MigrationError, readMigrations } from "@/lib/db/migrator";
import type { Database } from "@/lib/db/open-database";
import { createEmptyDatabase } from "../support/test-database";

describe("migrator", () => {
  let db: Database;
  let dir: string;

  beforeEach(async () => {
    db = await createEmptyDatabase();
    dir = await mkdtemp(path.join(tmpdir(), "chorus-migrations-"));
    await cp(defaultMigrationsDir, dir, { recursive: true });
  });

  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  const rows = () =>
    db.sql.query<{ migration_name: string; checksum: string; finished_at: Date | null; applied_steps_count: number; logs: string | null }>(
      `SELECT migration_name, checksum, finished_at, applied_steps_count, logs FROM "_prisma_migrations" ORDER BY migration_name`,
    );

  it("applies every migration once and records it as prisma migrate deploy does", async () => {
    const first = await migrate(db.sql, dir);
    expect(first.applied).toContain("20261122000000_init");

    const sql = await readFile(path.join(dir, "20261122000000_init", "migration.sql"), "utf8");
    const [row] = await rows();
    expect(row).toMatchObject({ migration_name: "20261122000000_init", checksum: migrationChecksum(sql), applied_steps_count: 1, logs: null });
    expect(row!.finished_at).toBeInstanceOf(Date);
    expect(row!.checksum).toMatch(/^[0-9a-f]{64}$/);

    const second = await migrate(db.sql, dir);
    expect(second.applied).toEqual([]);
    expect(await rows()).toHaveLength(first.applied.length);
  });

  it("applies each migration once when two processes migrate at the same time", async () => {
    const [first, second] = await Promise.all([migrate(db.sql, dir), migrate(db.sql, dir)]);

    const all = (await readMigrations(dir)).map((file) => file.name);
    expect([...first.applied, ...second.applied].sort()).toEqual(all);
    expect(await rows()).toHaveLength(all.length);
  });

  it("applies new migrations in name order", async () => {
    await migrate(db.sql, dir);
    await addMigration(dir, "20991231000002_second", `ALTER TABLE "widgets" ADD COLUMN "size" INTEGER;`);
    await addMigration(dir, "20991231000001_first", `CREATE TABLE "widgets" ("id" TEXT PRIMARY KEY);`);

    const result = await migrate(db.sql, dir);

    expect(result.applied).toEqual(["20991231000001_first", "20991231000002_second"]);
    await db.sql.query(`INSERT INTO "widgets" (id, size) VALUES ('w', 3)`);
  });

  it("refuses an already-applied migration whose file changed", async () => {
    await migrate(db.sql, dir);
    const file = path.join(dir, "20261122000000_init", "migration.sql");
    await writeFile(file, `${await readFile(file, "utf8")}\n-- edited later\n`);

    await expect(migrate(db.sql, dir)).rejects.toThrow(/20261122000000_init was changed after it was applied/);
  });

  it("accepts a file whose only change is CRLF line endings", async () => {
    await migrate(db.sql, dir);
    const file = path.join(dir, "20261122000000_init", "migration.sql");
    await writeFile(file, (await readFile(file, "utf8")).replace(/\n/g, "\r\n"));

    await expect(migrate(db.sql, dir)).resolves.toEqual({ applied: [] });
  });

  it("rolls a failing migration back whole and records nothing", async () => {
    await migrate(db.sql, dir);
    await addMigration(dir, "20991231000001_broken", `CREATE TABLE "half" ("id" TEXT);\nSELECT * FROM "no_such_table";`);

    const failure = migrate(db.sql, dir);

    await expect(failure).rejects.toBeInstanceOf(MigrationError);
    await expect(failure).rejects.toThrow(/20991231000001_broken failed and was rolled back: .*no_such_table/);
    const tables = await db.sql.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'half'`);
    expect(tables).toEqual([]);
    expect((await rows()).map((row) => row.migration_name)).not.toContain("20991231000001_broken");
  });
});

async function addMigration(dir: string, name: string, sql: string): Promise<void> {
  const { mkdir } = await import("node:fs/promises");
  await mkdir(path.join(dir, name));
  await writeFile(path.join(dir, name, "migration.sql"), sql);
}
