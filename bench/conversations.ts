import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { postMessageInputSchema } from "@/lib/conversations/message-input";
import { listConversations } from "@/lib/conversations/list-conversations";
import { sendMessage } from "@/lib/conversations/send-message";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { createChannel, createProjectWithChannel } from "@/test/support/fixtures";
import type { TestApp, TestUser } from "@/test/support/test-app";
import { startBenchServer } from "./bench-server";
import { percentile, result, type BenchResult } from "./measure";
import { runBenchClient } from "./run-client";

const ROOM_SIZE = 50;
const DELIVERY_ROUNDS = 200;
const DELIVERY_WARMUP = 50;
const DELIVERY_BLOCKS = 8;

type Server_ = TestApp;

export async function measureConversations(): Promise<BenchResult[]> {
  const server = await startBenchServer();
  try {
    const { channel } = await createProjectWithChannel(server.prisma);
    const users = [];
    for (let index = 0; index < ROOM_SIZE; index += 1) users.push(await server.signUp(`bench${index}`));
    const delivery = await measureDelivery(server, channel.id, users);
    const throughput = await measurePostThroughput(server, channel.id, users.map((user) => user.id));
    const unread = await measureUnreadCounts(server);
    return [...delivery, ...throughput, unread];
  } finally {
    await server.close();
  }
}

/**
 * Post → `message:created` on all 50 sockets of the room, against a bare Socket.IO server that
 * broadcasts a message of the same shape to 50 sockets; one client process times both, in turns.
 */
async function measureDelivery(server: Server_, conversationId: string, users: TestUser[]): Promise<BenchResult[]> {
  const sample = await sendMessage(
    { prisma: server.prisma, publisher: server.runtime.realtime },
    { userId: users[0]!.id, input: { conversationId, clientId: randomUUID(), content: "delivery sample" } },
  );
  const bare = await startBareBroadcast(sample.message);
  try {
    const samples = await runBenchClient<{ chorus: number[]; bare: number[] }>("bench/delivery-client.ts", {
      chorus: { url: server.url, cookies: users.map((user) => user.cookie), conversationId },
      bare: { url: bare.url, sockets: ROOM_SIZE },
      rounds: DELIVERY_ROUNDS,
      blocks: DELIVERY_BLOCKS,
      warmup: DELIVERY_WARMUP,
    });
    return [
      result("conversations.delivery_p50_ms", "ms", percentile(samples.chorus, 50), percentile(samples.bare, 50)),
      result("conversations.delivery_p99_ms", "ms", percentile(samples.chorus, 99), percentile(samples.bare, 99), { ratioAtMost: 2 }),
    ];
  } finally {
    bare.close();
  }
}

/** The baseline server: it only broadcasts what it is sent, as a Chorus message, to its one room. */
async function startBareBroadcast(message: MessageDto): Promise<{ url: string; close(): void }> {
  const httpServer = createServer();
  const io = new Server(httpServer);
  io.on("connection", (socket) => {
    void socket.join("room");
    socket.on("send", (payload: { clientId: string }, ack: () => void) => {
      io.to("room").emit("message", { ...message, clientId: payload.clientId });
      ack();
    });
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`, close: () => void io.close() };
}

const THROUGHPUT_MESSAGES = 600;
const THROUGHPUT_BLOCKS = 6;

/**
 * Messages per second through validation, the posting call and the emit, against bare INSERTs.
 * The two alternate in blocks, so that a slow spell of the machine weighs on both alike; the
 * bare rows go to a conversation of their own, whose seqs the posts do not allocate.
 */
async function measurePostThroughput(server: Server_, conversationId: string, userIds: string[]): Promise<BenchResult[]> {
  const { prisma } = server.db;
  const { projectId } = await prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  const bareConversationId = (await createChannel(prisma, { projectId, name: "bare-inserts" })).id;
  const perBlock = THROUGHPUT_MESSAGES / THROUGHPUT_BLOCKS;
  let fullMs = 0;
  let bareMs = 0;
  for (let block = 0; block < THROUGHPUT_BLOCKS; block += 1) {
    let started = performance.now();
    for (let index = block * perBlock; index < (block + 1) * perBlock; index += 1) {
      const input = postMessageInputSchema.parse({ conversationId, clientId: randomUUID(), content: `throughput ${index}` });
      // Senders rotate so the per-user rate limit (20 per 10 s) is not what is measured.
      await sendMessage({ prisma, publisher: server.runtime.realtime }, { userId: userIds[index % userIds.length]!, input });
    }
    fullMs += performance.now() - started;

    started = performance.now();
    for (let index = block * perBlock + 1; index <= (block + 1) * perBlock; index += 1) {
      await prisma.$executeRaw`INSERT INTO "messages" ("id", "conversationId", "seq", "authorUserId", "role", "content") VALUES (${randomUUID()}, ${bareConversationId}, ${index}, ${userIds[0]}, 'user', ${`bare ${index}`})`;
    }
    bareMs += performance.now() - started;
  }
  const perSecond = (ms: number) => THROUGHPUT_MESSAGES / (ms / 1000);
  return [result("conversations.post_throughput", "messages/s", perSecond(fullMs), perSecond(bareMs), { ratioAtLeast: 0.3 })];
}

const CONVERSATIONS = 500;
const MESSAGES_EACH = 1000;
const UNREAD_TARGET_MS = 20;

/** The sidebar's one query for a user in 500 conversations of 1,000 messages each. */
async function measureUnreadCounts(server: Server_): Promise<BenchResult> {
  const { prisma } = server.db;
  const reader = await server.signUp("reader");
  const writer = await server.signUp("writer");
  const project = await prisma.project.findFirstOrThrow();
  await prisma.$executeRaw`
    INSERT INTO "conversations" ("id", "projectId", "type", "key", "scope", "title", "lastSeq", "updatedAt")
    SELECT 'bench-' || n, ${project.id}, 'group', 'per_room', 'room:bench-' || n, 'bench ' || n, ${MESSAGES_EACH}, now() - n * interval '1 second'
    FROM generate_series(1, ${CONVERSATIONS}) n`;
  await prisma.$executeRaw`
    INSERT INTO "participants" ("id", "conversationId", "userId")
    SELECT gen_random_uuid()::text, c."id", u."id" FROM "conversations" c CROSS JOIN (VALUES (${reader.id}), (${writer.id})) AS u("id")
    WHERE c."id" LIKE 'bench-%'`;
  await prisma.$executeRaw`
    INSERT INTO "messages" ("id", "conversationId", "seq", "authorUserId", "role", "content")
    SELECT gen_random_uuid()::text, c."id", s, ${writer.id}, 'user', 'message ' || s
    FROM "conversations" c CROSS JOIN generate_series(1, ${MESSAGES_EACH}) s WHERE c."id" LIKE 'bench-%'`;
  // Every 50th message mentions the reader; the reader has read a different amount of each conversation.
  await prisma.$executeRaw`
    INSERT INTO "message_mentions" ("id", "messageId", "conversationId", "seq", "userId")
    SELECT gen_random_uuid()::text, m."id", m."conversationId", m."seq", ${reader.id} FROM "messages" m
    WHERE m."conversationId" LIKE 'bench-%' AND m."seq" % 50 = 0`;
  await prisma.$executeRaw`
    INSERT INTO "read_states" ("userId", "conversationId", "lastReadSeq", "updatedAt")
    SELECT ${reader.id}, c."id", (hashtext(c."id") & 1023) % ${MESSAGES_EACH}, now() FROM "conversations" c WHERE c."id" LIKE 'bench-%'`;
  // As posting and reading would have left them: the mentions after each read position.
  await prisma.$executeRaw`
    UPDATE "read_states" r SET "unreadMentions" = (
      SELECT count(*) FROM "message_mentions" m WHERE m."userId" = r."userId" AND m."conversationId" = r."conversationId" AND m."seq" > r."lastReadSeq")
    WHERE r."userId" = ${reader.id}`;
  await prisma.$executeRaw`ANALYZE`;

  const samples: number[] = [];
  for (let run = 0; run < 30; run += 1) {
    const started = performance.now();
    const list = await listConversations(prisma, { userId: reader.id });
    samples.push(performance.now() - started);
    if (list.length < CONVERSATIONS) throw new Error(`expected ${CONVERSATIONS} conversations, got ${list.length}`);
  }
  return result("conversations.unread_counts_ms", "ms", percentile(samples, 50), null, { valueAtMost: UNREAD_TARGET_MS });
}
