import next from "next";
import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { DatabaseStartupError, openDatabase } from "@/lib/db/open-database";
import { MigrationError } from "@/lib/db/migrator";
import { MemoryStartupError } from "@/lib/memory/vector-store";
import { RedisStartupError } from "@/lib/realtime/redis-adapter";
import { quietClientAborts } from "@/lib/log/quiet-client-aborts";
import { exitOnSignals } from "@/lib/server/exit-on-signals";

// One process, one port: Next.js serves pages, actions and route handlers; Socket.IO shares
// the HTTP server. The database opens first so a bad DATABASE_URL fails before Next starts.
async function main(): Promise<void> {
  const env = readEnv();
  const dev = env.NODE_ENV !== "production";
  quietClientAborts();
  const db = await openDatabase(databaseTarget(env));
  const app = next({ dev, hostname: env.HOST, port: env.PORT });
  await app.prepare();
  // Loaded after prepare(): the auth module reaches next/headers, which needs the request
  // storage that Next sets up while preparing.
  const { startChorus } = await import("@/lib/server/start-chorus");
  const handle = app.getRequestHandler();
  const server = await startChorus({ env, db, handle: (req, res) => void handle(req, res) });
  exitOnSignals(async (stage) => {
    await server.close(stage);
    stage("closing Next.js");
    await app.close?.();
  });
}

main().catch((error: unknown) => {
  // Expected start-up failures are one line that says what to fix; anything else keeps its stack.
  const known =
    error instanceof DatabaseStartupError || error instanceof MigrationError || error instanceof RedisStartupError || error instanceof MemoryStartupError || isConfigError(error);
  const message = error instanceof Error ? error.message : String(error);
  console.error(known ? `Chorus could not start: ${message}` : error);
  process.exit(1);
});

function isConfigError(error: unknown): boolean {
  return error instanceof Error && (error.message.startsWith("Invalid configuration") || error.message.startsWith("AUTH_SECRET") || (error as { code?: string }).code === "EADDRINUSE");
}
