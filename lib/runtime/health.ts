import packageJson from "@/package.json" with { type: "json" };
import type { Runtime } from "./runtime";

export interface Health {
  status: "ok" | "degraded";
  database: { status: "up" | "down"; engine: string; error?: string };
  realtime: { status: "up" | "down"; connections: number };
  /** The link between nodes: "unused" on a single node (no REDIS_URL). */
  redis: "up" | "down" | "unused";
  version: string;
}

const DATABASE_TIMEOUT_MS = 2_000;

/**
 * Healthy means the database answers and, when several nodes are configured, Redis does too
 * (without it, this node's broadcasts never reach the others). Realtime is reported, but a
 * web-only process is still useful.
 */
export async function checkHealth(runtime: Runtime): Promise<Health> {
  const database = await pingDatabase(runtime);
  const realtime = runtime.realtime.status();
  const redis = runtime.redisStatus();
  return {
    status: database.status === "up" && redis !== "down" ? "ok" : "degraded",
    database,
    realtime: { status: realtime.state, connections: realtime.connections },
    redis,
    version: packageJson.version,
  };
}

export function healthHttpStatus(health: Health): 200 | 503 {
  return health.status === "ok" ? 200 : 503;
}

async function pingDatabase(runtime: Runtime): Promise<Health["database"]> {
  const engine = runtime.db.engine;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      runtime.db.sql.query("SELECT 1"),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${DATABASE_TIMEOUT_MS} ms`)), DATABASE_TIMEOUT_MS);
      }),
    ]);
    return { status: "up", engine };
  } catch (error) {
    return { status: "down", engine, error: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}
