import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { defaultMigrationsDir, migrate, readMigrations } from "@/lib/db/migrator";
import type { Database } from "@/lib/db/open-database";
import { createEmptyDatabase } from "./test-database";

/**
 * A database of the current mode as an older Chorus left it: every migration named before
 * `migration` applied, none after (an upgrade test then runs `migrate(db.sql)` for the rest).
 */
export async function databaseBefore(migration: string): Promise<Database> {
  const db = await createEmptyDatabase();
  const dir = await mkdtemp(path.join(tmpdir(), "chorus-migrations-"));
  try {
    const before = (await readMigrations()).filter((file) => file.name < migration);
    for (const file of before) await cp(path.join(defaultMigrationsDir, file.name), path.join(dir, file.name), { recursive: true });
    await migrate(db.sql, dir);
    return db;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
