import { connect, createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listConversations } from "@/app/api/conversations/route";
import { POST as postMessage } from "@/app/api/conversations/[conversationId]/messages/route";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { openDatabase } from "@/lib/db/open-database";
import type { Ack } from "@/lib/realtime/events";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { createProjectWithChannel } from "../support/fixtures";
import { scratchDatabase } from "../support/node-process";
import { emitWithAck, TestApp, type TestUser } from "../support/test-app";

/**
 * A PostgreSQL that can be taken down: a TCP relay in front of the real server. Stopping it
 * closes every connection and leaves nothing listening on its port, so new connections are
 * refused (ECONNREFUSED), as when PostgreSQL itself stops.
 */
async function stoppablePostgres(port = 0): Promise<{ port: number; stop(): Promise<void> }> {
  const upstream = new URL(postgresAdminUrl);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on("error", () => undefined).on("close", () => sockets.delete(socket));
  };
  const relay: Server = createServer((client) => {
    const server = connect(Number(upstream.port || 5432), upstream.hostname);
    [client, server].forEach(track);
    client.pipe(server).pipe(client);
  });
  await new Promise<void>((resolve) => relay.listen(port, "127.0.0.1", resolve));
  return {
    port: (relay.address() as { port: number }).port,
    stop: async () => {
      const closed = new Promise((resolve) => relay.close(resolve));
      sockets.forEach((socket) => socket.destroy());
      await closed;
    },
  };
}

/** PostgreSQL refusing connections: every route handler and socket ack says 503 "retry", none 500. */
describe("the database becomes unreachable", () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let postgres: Awaited<ReturnType<typeof stoppablePostgres>>;
  let app: TestApp;
  let alice: TestUser;
  let token: string;
  let channelId: string;

  beforeAll(async () => {
    database = await scratchDatabase(postgresAdminUrl, "chorus_down");
    postgres = await stoppablePostgres();
    const url = new URL(postgresUrlFor(database.name));
    url.port = String(postgres.port);
    app = await TestApp.create(await openDatabase({ engine: "postgres", url: url.toString() }));
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    alice = await app.signUp("Alice");
    token = (await createApiToken(app.prisma, { userId: alice.id, name: "script" })).token;
  });
  afterAll(async () => {
    await app?.close();
    await database?.drop();
  });

  const request = (path: string, headers: Record<string, string>, body?: unknown) =>
    new Request(`${app.url}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { host: new URL(app.url).host, ...(body === undefined ? {} : { "content-type": "application/json", origin: app.url }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const list = (headers: Record<string, string>) => listConversations(request("/api/conversations", headers));

  async function expectUnavailable(response: Response) {
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("5");
    expect(await response.json()).toEqual({ error: { code: "unavailable", message: "Database unavailable, retry in 5 seconds." } });
  }

  it("answers 503 with Retry-After and 'Database unavailable, retry', for a token or a cookie and for socket acks, then recovers", async () => {
    expect((await list({ authorization: `Bearer ${token}` })).status).toBe(200);
    const socket = await app.connect(alice);

    await postgres.stop();
    await expectUnavailable(await list({ authorization: `Bearer ${token}` }));
    await expectUnavailable(await list({ cookie: alice.cookie }));
    const path = `/api/conversations/${channelId}/messages`;
    await expectUnavailable(await postMessage(request(path, { authorization: `Bearer ${token}` }, { content: "while down" }), { params: Promise.resolve({ conversationId: channelId }) }));
    const ack = await emitWithAck<Ack<unknown>>(socket, "conversation:join", { conversationId: channelId });
    expect(ack).toEqual({ error: { code: "unavailable", message: "Database unavailable, retry in 5 seconds." } });

    // Back on the same port: the next request reconnects.
    postgres = await stoppablePostgres(postgres.port);
    expect((await list({ authorization: `Bearer ${token}` })).status).toBe(200);
  });
});
