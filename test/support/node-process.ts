import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer } from "node:net";
import pg from "pg";
import { io as connectSocket } from "socket.io-client";
import type { ClientSocket } from "./test-app";

/** A Chorus node (scripts/chorus-node.ts) in a process of its own. */
export interface NodeProcess {
  url: string;
  /** What the node printed after its port on the READY line (the bench's node adds its world). */
  ready: string;
  child: ChildProcess;
  /** Output so far, for failure messages. */
  output(): string;
  /** SIGTERM; resolves with the exit code and how long it took. */
  stop(): Promise<{ code: number | null; ms: number }>;
}

export const SHARED_SECRET = "chorus-nodes-share-this-secret-0123456789";

/** `script` prints "READY <port>" once it serves; `nodeOptions` go before it (e.g. --conditions). */
export function startNode(env: Record<string, string>, { script = "scripts/chorus-node.ts", nodeOptions = [] }: { script?: string; nodeOptions?: string[] } = {}): Promise<NodeProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeOptions, "--import", "tsx", script], {
      env: { ...process.env, NODE_ENV: "test", HOST: "127.0.0.1", PORT: "0", AUTH_SECRET: SHARED_SECRET, SEED_DEMO: "false", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
    child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (\d+) ?(.*)/.exec(chunk.toString());
      if (!ready) return;
      resolve({
        url: `http://127.0.0.1:${ready[1]}`,
        ready: ready[2]!.trim(),
        child,
        output: () => output,
        async stop() {
          const started = Date.now();
          if (child.exitCode === null) child.kill("SIGTERM");
          const code = await exited;
          return { code, ms: Date.now() - started };
        },
      });
    });
    void exited.then((code) => reject(new Error(`node exited with ${code}: ${output}`)));
  });
}

export async function signUpOn(url: string, name: string): Promise<{ id: string; email: string; cookie: string }> {
  const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${randomUUID()}@example.test`;
  const response = await fetch(`${url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ name, email, password: "two-nodes-1" }),
  });
  if (response.status !== 200) throw new Error(`sign-up failed with ${response.status}: ${await response.text()}`);
  const cookie = response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ");
  return { id: ((await response.json()) as { user: { id: string } }).user.id, email, cookie };
}

export function connectTo(url: string, cookie: string, options: { reconnection?: boolean; auth?: Record<string, unknown> } = {}): Promise<ClientSocket> {
  const socket: ClientSocket = connectSocket(url, {
    transports: ["websocket"],
    reconnection: options.reconnection ?? false,
    reconnectionDelay: 100,
    reconnectionDelayMax: 1_000,
    forceNew: true,
    extraHeaders: { cookie, origin: url },
    ...(options.auth ? { auth: options.auth } : {}),
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

/** A scratch database on the test PostgreSQL, dropped by the returned function. */
export async function scratchDatabase(adminUrl: string, prefix: string): Promise<{ name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 10)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  return { name, drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** A Redis of the test's own (so it can be stopped and started again), on a free port. */
export async function startRedis(port?: number): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const child = spawn("redis-server", ["--port", String(chosen), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    child.once("error", reject);
    child.stdout!.on("data", (chunk: Buffer) => {
      if (/Ready to accept connections/.test(chunk.toString())) resolve();
    });
  });
  const exited = new Promise((done) => child.once("exit", done));
  return {
    url: `redis://127.0.0.1:${chosen}`,
    port: chosen,
    async stop() {
      child.kill("SIGKILL");
      await exited;
    },
  };
}
