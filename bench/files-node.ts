import type { IncomingMessage, ServerResponse } from "node:http";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { toNodeHandler } from "better-auth/node";
import { POST as uploadAttachment } from "@/app/api/conversations/[conversationId]/attachments/route";
import { POST as postMessage } from "@/app/api/conversations/[conversationId]/messages/route";
import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { getRuntime } from "@/lib/runtime/runtime";
import { exitOnSignals } from "@/lib/server/exit-on-signals";
import { createProjectWithChannel } from "@/test/support/fixtures";

/**
 * The node `npm run bench -- files` measures, in a process of its own: the same composition as
 * server.ts (startChorus: request guard, runtime, Socket.IO, background work) on the embedded
 * database in DATA_DIR, with the two routes the bench calls handed to the app's own route
 * handlers the way Next hands them a request (a web Request over the node stream), and Next's
 * pages left out. `GET /bench/event-loop` answers this process's event-loop delay and utilisation
 * since the last reset (`?reset=1` starts anew). Prints `READY <port> {conversationId}`.
 */
const env = readEnv();
const db = await openDatabase(databaseTarget(env));
// Before start-up: people who sign up join the oldest project's channels.
const { channel } = await createProjectWithChannel(db.prisma, "files-bench");
const { startChorus } = await import("@/lib/server/start-chorus");

// 10 ms: Node's own default; each sample is how late a 10 ms timer fired.
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
let utilizationSince = performance.eventLoopUtilization();

const ATTACHMENTS = /^\/api\/conversations\/([^/?]+)\/attachments$/;
const MESSAGES = /^\/api\/conversations\/([^/?]+)\/messages$/;

async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "localhost"}`);
  if (url.pathname === "/bench/event-loop") {
    const busy = performance.eventLoopUtilization(utilizationSince).utilization;
    const reading = { p50Ms: delay.percentile(50) / 1e6, p99Ms: delay.percentile(99) / 1e6, maxMs: delay.max / 1e6, samples: delay.count, busy };
    if (url.searchParams.has("reset")) {
      delay.reset();
      utilizationSince = performance.eventLoopUtilization();
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reading));
    return;
  }
  const upload = req.method === "POST" ? ATTACHMENTS.exec(url.pathname) : null;
  const post = req.method === "POST" ? MESSAGES.exec(url.pathname) : null;
  if (!upload && !post) return toNodeHandler((await getRuntime()).auth)(req, res);
  const route = upload ? uploadAttachment : postMessage;
  const conversationId = (upload ?? post)![1]!;
  // As Next's NextRequestAdapter does: the node request itself is the body.
  const request = new Request(url, { method: req.method, headers: headersOf(req), body: req as unknown as ReadableStream, duplex: "half" } as RequestInit);
  const response = await route(request, { params: Promise.resolve({ conversationId }) });
  res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
}

function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  return headers;
}

const server = await startChorus({ env, db, handle: (req, res) => void serve(req, res) });
console.log(`READY ${server.port} ${JSON.stringify({ conversationId: channel.id })}`);
exitOnSignals(() => server.close());
