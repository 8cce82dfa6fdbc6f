import { openDatabase } from "@/lib/db/open-database";
import { TestApp } from "@/test/support/test-app";

/** The real server half (PGlite in memory, auth, Socket.IO) on a random port, for measuring. */
export async function startBenchServer(): Promise<TestApp> {
  return TestApp.create(await openDatabase({ engine: "pglite", dataDir: null }));
}
