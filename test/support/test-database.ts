import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { openDatabase, type Database } from "@/lib/db/open-database";
import { databaseMode, postgresAdminUrl, postgresUrlFor } from "./database-mode";

/** A fresh, migrated database of its own for one test file; close() also deletes it. */
export async function createTestDatabase(): Promise<Database> {
  return databaseMode === "postgres" ? createPostgresCopy() : createPgliteCopy();
}

async function createPgliteCopy(): Promise<Database> {
  const template = new Blob([await readFile(inject("pgliteTemplatePath"))]);
  return openDatabase({ engine: "pglite", dataDir: null, loadDataDir: template }, { migrate: false });
}

async function createPostgresCopy(): Promise<Database> {
  const name = `chorus_test_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject("postgresTemplate")}`);
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(name) }, { migrate: false });
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
