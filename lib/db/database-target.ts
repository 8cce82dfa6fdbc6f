import path from "node:path";
import type { Env } from "@/lib/config/env";
import type { DatabaseTarget } from "./open-database";

/** DATABASE_URL selects PostgreSQL; otherwise the embedded PGlite lives in DATA_DIR/pglite. */
export function databaseTarget(env: Env): DatabaseTarget {
  return env.DATABASE_URL
    ? { engine: "postgres", url: env.DATABASE_URL }
    : { engine: "pglite", dataDir: path.join(env.dataDir, "pglite") };
}
