import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "better-auth/node";
import { io as connectSocket, type Socket } from "socket.io-client";
import type { AttachmentDto } from "@/lib/attachments/attachment-dto";
import { getUserSession } from "@/lib/auth/session-user";
import { readEnv } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { createRequestGuard } from "@/lib/http/guard-request";
import { markSeen } from "@/lib/people/last-seen";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/realtime/events";
import { createRealtimeServer, type RealtimeServer } from "@/lib/realtime/create-realtime-server";
import { createRuntimeFor, provideRuntime, stopBackgroundWork, postingDeps, type Runtime } from "@/lib/runtime/runtime";

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface TestUser {
  id: string;
  email: string;
  name: string;
  /** The session cookie, as a browser would send it. */
  cookie: string;
}

/**
 * The app's server half on a random port: a fresh migrated database, better-auth's HTTP API and
 * the real Socket.IO server. Tests talk to it with real socket.io-client connections.
 */
export class TestApp {
  private sockets: ClientSocket[] = [];

  private constructor(
    readonly runtime: Runtime,
    readonly db: Database,
    readonly url: string,
    private readonly httpServer: Server,
    private readonly realtime: RealtimeServer,
  ) {}

  /** On a fresh copy of the migrated test database (inside Vitest). */
  static async start(options: { onQuery?: (sql: string) => void; env?: Record<string, string> } = {}): Promise<TestApp> {
    // Loaded lazily: it reads Vitest's provided context, and benchmarks use create() outside Vitest.
    const { createTestDatabase } = await import("./test-database");
    return TestApp.create(await createTestDatabase(options), options.env);
  }

  /** Around a database the caller opened; close() closes it. `env` adds settings (e.g. OPENAI_BASE_URL). */
  static async create(db: Database, env: Record<string, string> = {}): Promise<TestApp> {
    const runtime = createRuntimeFor(db, readEnv({ NODE_ENV: "test", DATA_DIR: "/nonexistent", PORT: "0", ...env }));
    const httpServer = createServer(createRequestGuard({ trustedProxies: runtime.env.TRUST_PROXY, allowedOrigins: runtime.env.allowedOrigins }).wrap(toNodeHandler(runtime.auth)));
    const realtime = createRealtimeServer(httpServer, {
      prisma: db.prisma,
      getSession: (headers) => getUserSession(runtime.auth, headers),
      trustedProxies: runtime.env.TRUST_PROXY,
      allowedOrigins: [],
      posting: postingDeps(runtime),
      stopTurn: (dispatchId) => runtime.turns.stop(dispatchId),
      markSeen: (userId) => markSeen(db.prisma, userId),
    });
    runtime.realtime = realtime.publisher;
    provideRuntime(runtime);
    await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
    const { port } = httpServer.address() as AddressInfo;
    return new TestApp(runtime, db, `http://127.0.0.1:${port}`, httpServer, realtime);
  }

  get prisma() {
    return this.db.prisma;
  }

  async signUp(name = "Test User"): Promise<TestUser> {
    const email = `${name.toLowerCase().replace(/\W+/g, ".")}.${randomBytes(4).toString("hex")}@example.test`;
    const response = await this.runtime.auth.api.signUpEmail({
      body: { name, email, password: "correct-horse-1" },
      asResponse: true,
    });
    const body = (await response.json()) as { user: { id: string } };
    return { id: body.user.id, email, name, cookie: sessionCookie(response) };
  }

  /** A file uploaded by `user` in the conversation through the attachments route, as a browser sends it; anything but 201 throws with the answer. */
  async attach(user: TestUser, conversationId: string, name: string, bytes: Uint8Array): Promise<AttachmentDto> {
    const form = new FormData();
    form.set("file", new File([Buffer.from(bytes)], name));
    // Loaded when used: the route imports "server-only", which only vitest resolves (benches import this file under tsx).
    const { POST: uploadRoute } = await import("@/app/api/conversations/[conversationId]/attachments/route");
    const response = await uploadRoute(new Request(`${this.url}/api/conversations/${conversationId}/attachments`, { method: "POST", body: form, headers: { cookie: user.cookie } }), { params: Promise.resolve({ conversationId }) });
    if (response.status !== 201) throw new Error(`uploading ${name}: ${response.status} ${await response.text()}`);
    return ((await response.json()) as { data: AttachmentDto }).data;
  }

  /** Another session for the same user (another browser): a cookie of its own. */
  async signIn(user: TestUser): Promise<TestUser> {
    const response = await this.runtime.auth.api.signInEmail({ body: { email: user.email, password: "correct-horse-1" }, asResponse: true });
    return { ...user, cookie: sessionCookie(response) };
  }

  async signOut(user: TestUser): Promise<void> {
    await this.runtime.auth.api.signOut({ headers: new Headers({ cookie: user.cookie }) });
  }

  /** A connected socket for this user; rejects with the server's refusal if it is refused. */
  async connect(user: TestUser | null, options: { origin?: string; reconnection?: boolean } = {}): Promise<ClientSocket> {
    const socket: ClientSocket = connectSocket(this.url, {
      transports: ["websocket"],
      reconnection: options.reconnection ?? false,
      reconnectionDelay: 50,
      forceNew: true,
      extraHeaders: { origin: options.origin ?? this.url, ...(user ? { cookie: user.cookie } : {}) },
    });
    this.sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("connect_error", reject);
    });
    return socket;
  }

  async close(): Promise<void> {
    this.sockets.forEach((socket) => socket.disconnect());
    await stopBackgroundWork(this.runtime);
    await this.realtime.close();
    this.httpServer.close();
    await this.db.close();
  }
}

function sessionCookie(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((header) => header.split(";")[0])
    .join("; ");
}

/** Emits and resolves with the acknowledgement. */
export function emitWithAck<T>(socket: ClientSocket, event: keyof ClientToServerEvents, payload: unknown): Promise<T> {
  return (socket.timeout(5_000) as unknown as { emitWithAck(event: string, payload: unknown): Promise<T> }).emitWithAck(event, payload);
}

/** Resolves with the next event of this name. */
export function nextEvent<Event extends keyof ServerToClientEvents>(
  socket: ClientSocket,
  event: Event,
): Promise<Parameters<ServerToClientEvents[Event]>[0]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5_000);
    socket.once(event, ((payload: Parameters<ServerToClientEvents[Event]>[0]) => {
      clearTimeout(timer);
      resolve(payload);
    }) as never);
  });
}
