import type { IncomingMessage, ServerResponse } from "node:http";
import { toNodeHandler } from "better-auth/node";
import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { checkHealth, healthHttpStatus } from "@/lib/runtime/health";
import { getRuntime } from "@/lib/runtime/runtime";
import { exitOnSignals } from "@/lib/server/exit-on-signals";

// One Chorus node without Next's pages: the same runtime, auth API, health, Socket.IO server,
// Redis adapter and shutdown as server.ts. The two-node tests and `npm run soak` start these and
// read "READY <port>".
const env = readEnv();
const db = await openDatabase(databaseTarget(env));
const { startChorus } = await import("@/lib/server/start-chorus");

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const runtime = await getRuntime();
  if (req.url !== "/api/health") return toNodeHandler(runtime.auth)(req, res);
  const health = await checkHealth(runtime);
  res.writeHead(healthHttpStatus(health), { "content-type": "application/json" }).end(JSON.stringify(health));
}

const server = await startChorus({ env, db, handle: (req, res) => void serve(req, res) });
console.log(`READY ${server.port}`);
exitOnSignals(() => server.close());
