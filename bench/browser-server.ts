import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { openDatabase } from "@/lib/db/open-database";

/**
 * The production server as the e2e suite runs it (`NODE_ENV=production tsx server.ts` after
 * `next build`), on the embedded database in a DATA_DIR of its own, for the browser bench.
 */
export interface BrowserServer {
  url: string;
  stop(): Promise<void>;
}

export function serverEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
    AUTH_SECRET: "bench-secret-bench-secret-bench-secret",
    SEED_DEMO: "1",
    // A real model's pace: a word every 40 ms.
    OFFLINE_MODEL_DELAY_MS: "40",
    LOG_LEVEL: "error",
  };
}

export async function buildApp(): Promise<void> {
  const child = spawn("npx", ["next", "build"], { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" } });
  const [code] = (await once(child, "exit")) as [number | null];
  if (code !== 0) throw new Error(`next build failed (exit ${code})`);
}

export async function startServer(port: number, dataDir: string): Promise<BrowserServer> {
  const child: ChildProcess = spawn("npx", ["tsx", "server.ts"], { stdio: ["ignore", "ignore", "inherit"], env: serverEnv(port, dataDir), detached: true });
  const url = `http://127.0.0.1:${port}`;
  const exited = once(child, "exit");
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
    const healthy = await fetch(`${url}/api/health`).then((response) => response.ok, () => false);
    if (healthy) break;
    if (Date.now() > deadline) throw new Error("the server was not ready within 2 minutes");
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}

/** A person signed in over HTTP: their cookie, for the API and for the browser. */
export async function signIn(url: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", origin: url }, body: JSON.stringify({ email, password }) });
  if (!response.ok) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]).join("; ");
}

export async function api<T>(url: string, cookie: string, route: string, body?: unknown): Promise<T> {
  const response = await fetch(`${url}${route}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { cookie, origin: url, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { data: T; error?: { message: string } };
  if (!response.ok) throw new Error(`${route}: ${response.status} ${json.error?.message ?? ""}`);
  return json.data;
}

/** What one seeded message says: sentences, and now and then a list, a table or highlighted code, as people and agents write. */
const BODIES = [
  "Agreed — let's keep the release notes short and link the full changelog from the announcement.",
  "I checked the staging logs this morning and the retry storm is gone since the backoff change went in.",
  "Here is the plan:\n\n1. freeze the branch on Thursday\n2. run the migration on a copy of production\n3. ship on Friday morning",
  "```ts\nexport async function retry<T>(run: () => Promise<T>, attempts = 3): Promise<T> {\n  for (let attempt = 1; ; attempt++) {\n    try {\n      return await run();\n    } catch (error) {\n      if (attempt >= attempts) throw error;\n      await new Promise((resolve) => setTimeout(resolve, 2 ** attempt * 100));\n    }\n  }\n}\n```",
  "| service | p95 | budget |\n|---|---|---|\n| api | 120 ms | 200 ms |\n| search | 340 ms | 400 ms |",
  "Sounds good. **Ship it** once the dashboards are green, and ping `@toby` if anything looks off.",
  "Can someone summarise what we decided about the pricing page? I missed the call.",
  "- tests pass on PostgreSQL\n- the soak ran for an hour with nothing lost\n- docs updated with the new limits",
];

/**
 * `count` messages in the conversation, straight into the database (the server stopped: the
 * embedded database has one connection), after what it holds (the notices of who joined): two
 * people and an agent taking turns a minute apart, ending now; the conversation's `lastSeq` and
 * the reader's read state moved to the end. Returns the newest message's seq.
 */
export async function seedMessages(dataDir: string, { conversationId, count, people, agentId, readerId }: { conversationId: string; count: number; people: string[]; agentId: string; readerId: string }): Promise<number> {
  const db = await openDatabase({ engine: "pglite", dataDir: `${dataDir}/pglite` });
  try {
    const rows = await db.prisma.$queryRawUnsafe<{ lastSeq: number }[]>(`SELECT "lastSeq" FROM conversations WHERE id = $1`, conversationId);
    const lastSeq = rows[0]!.lastSeq;
    const bodies = `ARRAY[${BODIES.map((body) => `'${body.replaceAll("'", "''")}'`).join(",")}]`;
    // The notices come first in time too.
    await db.prisma.$executeRawUnsafe(`UPDATE messages SET "createdAt" = now() - make_interval(mins => $2::int + 1) WHERE "conversationId" = $1`, conversationId, count);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO messages (id, "conversationId", seq, "authorUserId", "authorAgentId", role, content, metadata, "createdAt")
       SELECT gen_random_uuid(), $1, $6::int + n,
              CASE WHEN n % 3 = 0 THEN NULL WHEN n % 3 = 1 THEN $2 ELSE $3 END,
              CASE WHEN n % 3 = 0 THEN $4 ELSE NULL END,
              (CASE WHEN n % 3 = 0 THEN 'assistant' ELSE 'user' END)::"MessageRole",
              'Message ' || n || ': ' || (${bodies})[1 + (n * 7) % ${BODIES.length}],
              CASE WHEN n % 3 = 0 THEN '{"isHandoffSummary": false, "isToolResult": false, "model": "offline", "provider": "offline"}'::jsonb
                   ELSE '{"isHandoffSummary": false, "isToolResult": false}'::jsonb END,
              now() - make_interval(mins => $5::int - n)
       FROM generate_series(1, $5::int) AS n`,
      conversationId,
      people[0],
      people[1],
      agentId,
      count,
      lastSeq,
    );
    const newest = lastSeq + count;
    await db.prisma.$executeRawUnsafe(`UPDATE conversations SET "lastSeq" = $2 WHERE id = $1`, conversationId, newest);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO read_states ("userId", "conversationId", "lastReadSeq", "updatedAt") VALUES ($1, $2, $3, now())
       ON CONFLICT ("userId", "conversationId") DO UPDATE SET "lastReadSeq" = $3`,
      readerId,
      conversationId,
      newest,
    );
    return newest;
  } finally {
    await db.close();
  }
}
