import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { openDatabase } from "@/lib/db/open-database";
import { databaseMode, postgresAdminUrl, postgresUrlFor } from "./database-mode";

/**
 * Starting and migrating a database costs seconds, so it is done once here; each test file
 * copies the migrated template (see test-database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  return databaseMode === "postgres" ? setupPostgres(project) : setupPglite(project);
}

async function setupPglite(project: TestProject) {
  const db = await openDatabase({ engine: "pglite", dataDir: null });
  const dump = await db.pglite!.dumpDataDir("none");
  await db.close();
  const dir = await mkdtemp(path.join(tmpdir(), "chorus-template-"));
  const file = path.join(dir, "template.tar");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  project.provide("pgliteTemplatePath", file);
  return () => rm(dir, { recursive: true, force: true });
}

async function setupPostgres(project: TestProject) {
  const template = `chorus_template_${process.pid}`;
  const admin = new pg.Client({ connectionString: postgresAdminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${template}`);
  await admin.query(`CREATE DATABASE ${template}`);
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(template) });
  await db.close();
  project.provide("postgresTemplate", template);
  return async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await admin.end();
  };
}
