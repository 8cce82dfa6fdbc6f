/**
 * Integration tests run on a fresh in-memory PGlite per file by default, or on scratch databases
 * of a real PostgreSQL with CHORUS_TEST_DATABASE=postgres (`npm run test:pg`).
 */
export const databaseMode = process.env.CHORUS_TEST_DATABASE === "postgres" ? "postgres" : "pglite";

/** A server database we may create and drop scratch databases on; never a production one. */
export const postgresAdminUrl = process.env.CHORUS_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export function postgresUrlFor(database: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

declare module "vitest" {
  export interface ProvidedContext {
    /** PGlite mode: path of a migrated, dumped data directory to start each test database from. */
    pgliteTemplatePath: string;
    /** Postgres mode: name of a migrated database to copy with CREATE DATABASE … TEMPLATE. */
    postgresTemplate: string;
  }
}
