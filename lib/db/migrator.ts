import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { log } from "@/lib/log/logger";
import type { SqlDriver } from "./sql-driver";

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own transaction,
 * and records them in `_prisma_migrations` exactly as `prisma migrate deploy` does, so Prisma's
 * CLI agrees with us on a machine that has its schema engine.
 */

export const defaultMigrationsDir = path.join(process.cwd(), "prisma", "migrations");

/** Prisma's own advisory-lock key: two processes starting at once migrate one after the other. */
const PRISMA_ADVISORY_LOCK = 72707369;

const createTableSql = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MigrationError";
  }
}

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  rolled_back_at: Date | null;
}

/** SHA-256 of the file's bytes, as Prisma computes it. */
export function migrationChecksum(sql: string): string {
  return createHash("sha256").update(sql, "utf8").digest("hex");
}

/** Prisma also accepts a file whose only change is CRLF ↔ LF line endings; so do we. */
function checksumMatches(file: MigrationFile, recorded: string): boolean {
  return file.checksum === recorded || migrationChecksum(file.sql.replace(/\r\n/g, "\n")) === recorded;
}

export async function readMigrations(dir: string = defaultMigrationsDir): Promise<MigrationFile[]> {
  const entries = await readdir(/* turbopackIgnore: true */ dir, { withFileTypes: true });
  const names = entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(/* turbopackIgnore: true */ path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: migrationChecksum(sql) };
    }),
  );
}

export interface MigrateResult {
  applied: string[];
}

export async function migrate(driver: SqlDriver, dir: string = defaultMigrationsDir): Promise<MigrateResult> {
  const files = await readMigrations(dir);
  return withMigrationLock(driver, async () => {
    // Inside the lock: concurrent CREATE TABLE IF NOT EXISTS can still collide in PostgreSQL.
    await driver.query(createTableSql);
    return applyPending(driver, files);
  });
}

async function withMigrationLock<T>(driver: SqlDriver, work: () => Promise<T>): Promise<T> {
  // Session-level advisory locks need one connection throughout, so the lock is taken as a
  // transaction-level lock inside a transaction that only waits for it; the pending list is
  // re-read after it is granted.
  if (driver.engine === "pglite") return work();
  return driver.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [PRISMA_ADVISORY_LOCK]);
    return work();
  });
}

async function applyPending(driver: SqlDriver, files: MigrationFile[]): Promise<MigrateResult> {
  const applied = await driver.query<AppliedRow>(
    `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
  );
  const appliedByName = new Map(applied.map((row) => [row.migration_name, row]));
  verifyHistory(files, appliedByName);

  const done: string[] = [];
  for (const file of files) {
    if (appliedByName.has(file.name)) continue;
    await applyOne(driver, file);
    done.push(file.name);
    log.info("migration applied", { migration: file.name });
  }
  return { applied: done };
}

function verifyHistory(files: MigrationFile[], appliedByName: Map<string, AppliedRow>): void {
  const fileNames = new Set(files.map((file) => file.name));
  for (const row of appliedByName.values()) {
    if (row.finished_at === null) {
      throw new MigrationError(
        `Migration ${row.migration_name} started but did not finish. Fix the database by hand, then delete its row from _prisma_migrations.`,
      );
    }
    if (!fileNames.has(row.migration_name)) {
      log.warn("database has a migration that is not in prisma/migrations", { migration: row.migration_name });
    }
  }
  for (const file of files) {
    const row = appliedByName.get(file.name);
    if (row && !checksumMatches(file, row.checksum)) {
      throw new MigrationError(
        `Migration ${file.name} was changed after it was applied (checksum ${file.checksum.slice(0, 12)}… ≠ recorded ${row.checksum.slice(0, 12)}…). Restore the original file and put the change in a new migration.`,
      );
    }
  }
}

async function applyOne(driver: SqlDriver, file: MigrationFile): Promise<void> {
  try {
    await driver.transaction(async (tx) => {
      await tx.exec(file.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, finished_at, applied_steps_count)
         VALUES ($1, $2, $3, now(), now(), 1)`,
        [randomUUID(), file.checksum, file.name],
      );
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${file.name} failed and was rolled back: ${reason}`);
  }
}
