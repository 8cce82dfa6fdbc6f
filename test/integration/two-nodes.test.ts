import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import pg from "pg";
import { io as connectSocket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openDatabase, type Database } from "@/lib/db/open-database";
import type { Ack, ConversationActivity } from "@/lib/realtime/events";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, nextEvent, type ClientSocket } from "../support/test-app";

/**
 * Two real server processes on different ports sharing one PostgreSQL and one Redis behave as
 * one: people connected to different nodes see each other's messages, typing and reads.
 */
const redisUrl = process.env.CHORUS_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

interface Node {
  url: string;
  process: ChildProcess;
}

function startNode(databaseUrl: string): Promise<Node> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "test/support/chorus-node.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        PORT: "0",
        HOST: "127.0.0.1",
        DATABASE_URL: databaseUrl,
        REDIS_URL: redisUrl,
        AUTH_SECRET: "two-nodes-share-this-secret-0123456789",
        SEED_DEMO: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout!.on("data", (chunk: Buffer) => {
      const ready = /READY (\d+)/.exec(chunk.toString());
      if (ready) resolve({ url: `http://127.0.0.1:${ready[1]}`, process: child });
    });
    child.on("exit", (code) => reject(new Error(`node exited with ${code}: ${stderr}`)));
  });
}

async function signUp(node: Node, name: string): Promise<{ id: string; cookie: string }> {
  const response = await fetch(`${node.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: node.url },
    body: JSON.stringify({ name, email: `${name.toLowerCase()}.${randomUUID()}@example.test`, password: "two-nodes-1" }),
  });
  expect(response.status).toBe(200);
  const cookie = response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ");
  return { id: ((await response.json()) as { user: { id: string } }).user.id, cookie };
}

function connect(node: Node, cookie: string): Promise<ClientSocket> {
  const socket: ClientSocket = connectSocket(node.url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { cookie, origin: node.url } });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

describe("two nodes over Redis", () => {
  const database = `chorus_nodes_${randomBytes(5).toString("hex")}`;
  const sockets: ClientSocket[] = [];
  let nodes: Node[] = [];
  let db: Database;
  let channelId: string;

  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: postgresAdminUrl });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };

  beforeAll(async () => {
    await admin(`CREATE DATABASE ${database}`);
    // Both nodes migrate the empty database at the same moment: the migrator's lock serialises them.
    nodes = await Promise.all([startNode(postgresUrlFor(database)), startNode(postgresUrlFor(database))]);
    db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database) }, { migrate: false });
    channelId = (await createProjectWithChannel(db.prisma)).channel.id;
  }, 90_000);

  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    nodes.forEach((node) => node.process.kill("SIGTERM"));
    await db?.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await admin(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  });

  it("delivers messages, activity, typing and reads between people on different nodes", async () => {
    const [nodeA, nodeB] = nodes as [Node, Node];
    expect(nodeA.url).not.toBe(nodeB.url);
    const alice = await signUp(nodeA, "Alice");
    const bob = await signUp(nodeB, "Bob");

    const aliceOnA = await connect(nodeA, alice.cookie);
    const bobOnB = await connect(nodeB, bob.cookie);
    const bobSidebarOnA = await connect(nodeA, bob.cookie);
    sockets.push(aliceOnA, bobOnB, bobSidebarOnA);
    await emitWithAck(aliceOnA, "conversation:join", { conversationId: channelId });
    await emitWithAck(bobOnB, "conversation:join", { conversationId: channelId });

    const delivered = nextEvent(bobOnB, "message:created");
    const activity = nextEvent(bobSidebarOnA, "conversation:activity");
    const sent = await emitWithAck<Ack<MessageDto>>(aliceOnA, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "hello from node A" });
    expect(sent).toMatchObject({ data: { content: "hello from node A" } });
    const message = (sent as { data: MessageDto }).data;
    expect(await delivered).toEqual(message);
    expect(await activity).toEqual<ConversationActivity>({ conversationId: channelId, seq: message.seq, authorUserId: alice.id, mentionedUserIds: [] });

    const typing = nextEvent(aliceOnA, "typing");
    await emitWithAck(bobOnB, "typing:start", { conversationId: channelId });
    expect(await typing).toMatchObject({ actor: { id: bob.id, name: "Bob" }, typing: true });

    const readElsewhere = nextEvent(bobSidebarOnA, "read:updated");
    await emitWithAck(bobOnB, "conversation:read", { conversationId: channelId, seq: message.seq });
    expect(await readElsewhere).toMatchObject({ id: channelId, unread: 0, lastReadSeq: message.seq });
  });
});
