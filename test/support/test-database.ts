import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database, type OpenOptions } from "@/lib/db/open-database";
import { databaseMode, postgresAdminUrl, postgresUrlFor } from "./database-mode";

/** A fresh, migrated database of its own for one test file; close() also deletes it. */
export async function createTestDatabase(options: Pick<OpenOptions, "onQuery"> = {}): Promise<Database> {
  return databaseMode === "postgres" ? createPostgresCopy(options) : createPgliteCopy(options);
}

/** An empty, unmigrated database of the current mode, for testing the migrator itself. */
export async function createEmptyDatabase(): Promise<Database> {
  if (databaseMode === "pglite") return openDatabase({ engine: "pglite", dataDir: null }, { migrate: false });
  return createScratchPostgres(null, {});
}

async function createPgliteCopy(options: OpenOptions): Promise<Database> {
  const template = new Blob([await readFile(inject("pgliteTemplatePath"))]);
  return openDatabase({ engine: "pglite", dataDir: null, loadDataDir: template }, { ...options, migrate: false });
}

function createPostgresCopy(options: OpenOptions): Promise<Database> {
  return createScratchPostgres(inject("postgresTemplate"), options);
}

async function createScratchPostgres(template: string | null, options: OpenOptions): Promise<Database> {
  const name = `chorus_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(name) }, { ...options, migrate: false });
  return {
    ...db,
    async close() {
      await db.close();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: postgresAdminUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
