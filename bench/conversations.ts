import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "socket.io";
import { postMessageInputSchema } from "@/lib/conversations/message-input";
import { listConversations } from "@/lib/conversations/list-conversations";
import { sendMessage } from "@/lib/conversations/send-message";
import { userMessageMetadata } from "@/lib/conversations/message-metadata";
import { countTokens } from "@/lib/llm/token-counter";
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
const THROUGHPUT_BLOCKS = 60;

/**
 * Messages per second through validation, the posting call and the emit, against bare INSERTs
 * of the same message rows (texts, authors, client ids, metadata, token counts), made before the
 * clock starts. The two alternate in blocks of ten, so that a slow spell of the machine weighs on
 * both alike (in blocks of 100, seven runs of the same code gave 0.45-0.89 on a busy
 * machine); the bare rows go to a conversation of their own, whose seqs the posts do not allocate.
 * What the posts write besides (the seq, the rate bucket, the author's read position) is what is
 * measured.
 */
async function measurePostThroughput(server: Server_, conversationId: string, userIds: string[]): Promise<BenchResult[]> {
  const { prisma } = server.db;
  const { projectId } = await prisma.conversation.findUniqueOrThrow({ where: { id: conversationId } });
  const bareConversationId = (await createChannel(prisma, { projectId, name: "bare-inserts" })).id;
  // Senders rotate so the per-user rate limit (20 per 10 s) is not what is measured.
  const authorOf = (index: number) => userIds[index % userIds.length]!;
  const bareRows = Array.from({ length: THROUGHPUT_MESSAGES }, (_, index) => {
    const content = `throughput ${index}`;
    const createdAt = new Date();
    return { id: randomUUID(), clientId: randomUUID(), content, metadata: JSON.stringify(userMessageMetadata(createdAt)), tokenCount: countTokens(content), createdAt };
  });
  const perBlock = THROUGHPUT_MESSAGES / THROUGHPUT_BLOCKS;
  let fullMs = 0;
  let bareMs = 0;
  for (let block = 0; block < THROUGHPUT_BLOCKS; block += 1) {
    let started = performance.now();
    for (let index = block * perBlock; index < (block + 1) * perBlock; index += 1) {
      const input = postMessageInputSchema.parse({ conversationId, clientId: randomUUID(), content: `throughput ${index}` });
      await sendMessage({ prisma, publisher: server.runtime.realtime }, { userId: authorOf(index), input });
    }
    fullMs += performance.now() - started;

    started = performance.now();
    for (let index = block * perBlock; index < (block + 1) * perBlock; index += 1) {
      const row = bareRows[index]!;
      await prisma.$executeRaw`INSERT INTO "messages" ("id", "conversationId", "seq", "clientId", "authorUserId", "role", "content", "metadata", "tokenCount", "createdAt")
        VALUES (${row.id}, ${bareConversationId}, ${index + 1}, ${row.clientId}, ${authorOf(index)}, 'user', ${row.content}, ${row.metadata}::jsonb, ${row.tokenCount}, ${row.createdAt})`;
    }
    bareMs += performance.now() - started;
  }
  await assertSameMessages(prisma, { posted: conversationId, bare: bareConversationId });
  const perSecond = (ms: number) => THROUGHPUT_MESSAGES / (ms / 1000);
  return [result("conversations.post_throughput", "messages/s", perSecond(fullMs), perSecond(bareMs), { ratioAtLeast: 0.5 })];
}

/**
 * Both sides did the same work: every text posted once and inserted once, by the same author,
 * with a client id, the same metadata keys and token count; the posts' seqs have no gap (nor has
 * their conversation), and each author's read position is at their last post.
 */
async function assertSameMessages(prisma: Server_["prisma"], { posted, bare }: { posted: string; bare: string }): Promise<void> {
  const [check] = await prisma.$queryRaw<{ posted: number; bare: number; unmatched: number; seqSpan: number; gaps: number; readBehind: number }[]>`
    WITH p AS (SELECT * FROM "messages" WHERE "conversationId" = ${posted} AND "content" LIKE 'throughput %'),
    b AS (SELECT * FROM "messages" WHERE "conversationId" = ${bare})
    SELECT (SELECT count(*) FROM p)::int AS "posted", (SELECT count(*) FROM b)::int AS "bare",
      (SELECT count(*) FROM p FULL JOIN b ON b."content" = p."content" AND b."authorUserId" = p."authorUserId" AND b."role" = p."role"
         AND b."tokenCount" = p."tokenCount" AND b."clientId" IS NOT NULL AND p."clientId" IS NOT NULL
         AND ARRAY(SELECT jsonb_object_keys(b."metadata") ORDER BY 1) = ARRAY(SELECT jsonb_object_keys(p."metadata") ORDER BY 1)
       WHERE p."id" IS NULL OR b."id" IS NULL)::int AS "unmatched",
      (SELECT max("seq") - min("seq") + 1 FROM p)::int AS "seqSpan",
      (SELECT c."lastSeq" - count(m."id") FROM "conversations" c JOIN "messages" m ON m."conversationId" = c."id" WHERE c."id" = ${posted} GROUP BY c."lastSeq")::int AS "gaps",
      (SELECT count(*) FROM (SELECT "authorUserId", max("seq") AS "seq" FROM p GROUP BY 1) last
         JOIN "read_states" r ON r."userId" = last."authorUserId" AND r."conversationId" = ${posted} WHERE r."lastReadSeq" < last."seq")::int AS "readBehind"`;
  const expected = { posted: THROUGHPUT_MESSAGES, bare: THROUGHPUT_MESSAGES, unmatched: 0, seqSpan: THROUGHPUT_MESSAGES, gaps: 0, readBehind: 0 };
  if (JSON.stringify(check) !== JSON.stringify(expected)) {
    throw new Error(`post throughput: the posts and the bare inserts did not write the same messages: ${JSON.stringify(check)}, expected ${JSON.stringify(expected)}`);
  }
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
