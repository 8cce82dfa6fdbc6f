import { createServer } from "node:http";
import next from "next";
import { getSessionUser } from "@/lib/auth/session-user";
import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { DatabaseStartupError, openDatabase } from "@/lib/db/open-database";
import { MigrationError } from "@/lib/db/migrator";
import { log } from "@/lib/log/logger";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { noopPublisher } from "@/lib/realtime/publisher";

// One process, one port: Next.js serves pages, actions and route handlers; Socket.IO shares
// the HTTP server. Domain services live in lib/runtime and are shared through globalThis.
async function main(): Promise<void> {
  const env = readEnv();
  const dev = env.NODE_ENV !== "production";
  const db = await openDatabase(databaseTarget(env));
  const app = next({ dev, hostname: env.HOST, port: env.PORT });
  await app.prepare();
  // Loaded after prepare(): the auth module reaches next/headers, which needs the request
  // storage that Next sets up while preparing.
  const { closeRuntime, initRuntime } = await import("@/lib/runtime/runtime");
  const runtime = await initRuntime(env, db);
  const handle = app.getRequestHandler();

  const httpServer = createServer((req, res) => void handle(req, res));
  const realtime = createRealtimeServer(httpServer, {
    prisma: runtime.db.prisma,
    getSessionUser: (headers) => getSessionUser(runtime.auth, headers),
    allowedOrigins: env.APP_URL ? [new URL(env.APP_URL).origin] : [],
  });
  runtime.realtime = realtime.publisher;

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(env.PORT, env.HOST, resolve);
  });
  const address = httpServer.address();
  const port = typeof address === "object" && address ? address.port : env.PORT;
  log.info(`Chorus ready on http://localhost:${port}`, { mode: dev ? "development" : "production", database: runtime.db.engine });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("shutting down", { signal });
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    runtime.realtime = noopPublisher;
    httpServer.close();
    await realtime.close();
    await app.close?.();
    await closeRuntime();
    clearTimeout(force);
    process.exit(0);
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}

main().catch((error: unknown) => {
  // Expected start-up failures are one line that says what to fix; anything else keeps its stack.
  const known = error instanceof DatabaseStartupError || error instanceof MigrationError || isConfigError(error);
  const message = error instanceof Error ? error.message : String(error);
  console.error(known ? `Chorus could not start: ${message}` : error);
  process.exit(1);
});

function isConfigError(error: unknown): boolean {
  return error instanceof Error && (error.message.startsWith("Invalid configuration") || error.message.startsWith("AUTH_SECRET") || (error as { code?: string }).code === "EADDRINUSE");
}
