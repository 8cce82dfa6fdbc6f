import { randomUUID } from "node:crypto";
import { io as connectSocket, type Socket } from "socket.io-client";

/**
 * Two rooms of 50 people each, in a process of their own like browsers: one in Chorus
 * (`message:send` → `message:created`), one on a bare Socket.IO server that only broadcasts. A
 * post's delivery is timed from the sender's emit until every socket of its room has it. The
 * rooms take turns in blocks, so a slow spell of the machine weighs on both alike.
 * Prints `{ chorus: number[], bare: number[] }`.
 */
interface Options {
  chorus: { url: string; cookies: string[]; conversationId: string };
  bare: { url: string; sockets: number };
  /** Timed posts per room, in `blocks` turns. */
  rounds: number;
  blocks: number;
  /** Posts per room before timing starts: the server's code and the database's plans warm up. */
  warmup: number;
}

interface Room {
  sockets: Socket[];
  send: string;
  receive: string;
  conversationId?: string;
}

const options = JSON.parse(process.env.BENCH_CLIENT!) as Options;

async function connect(url: string, cookie?: string): Promise<Socket> {
  const socket = connectSocket(url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { origin: url, ...(cookie ? { cookie } : {}) } });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  return socket;
}

/** One post in `room`, timed until all its sockets have it. */
async function deliver(room: Room, round: number): Promise<number> {
  const clientId = randomUUID();
  const allReceived = Promise.all(
    room.sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          const onMessage = (message: { clientId?: string | null }) => {
            if (message.clientId !== clientId) return;
            socket.off(room.receive, onMessage);
            resolve();
          };
          socket.on(room.receive, onMessage);
        }),
    ),
  );
  const started = performance.now();
  const sender = room.sockets[round % room.sockets.length]!;
  const ack = (await sender.timeout(10_000).emitWithAck(room.send, { conversationId: room.conversationId, clientId, content: `delivery ${round}` })) as { error?: { message: string } } | undefined;
  if (ack?.error) throw new Error(`posting failed: ${ack.error.message}`);
  await allReceived;
  return performance.now() - started;
}

const chorusSockets = await Promise.all(options.chorus.cookies.map((cookie) => connect(options.chorus.url, cookie)));
await Promise.all(chorusSockets.map((socket) => socket.timeout(10_000).emitWithAck("conversation:join", { conversationId: options.chorus.conversationId })));
const chorus: Room = { sockets: chorusSockets, send: "message:send", receive: "message:created", conversationId: options.chorus.conversationId };
const bare: Room = { sockets: await Promise.all(Array.from({ length: options.bare.sockets }, () => connect(options.bare.url))), send: "send", receive: "message" };

const samples = { chorus: [] as number[], bare: [] as number[] };
let round = 0;
for (; round < options.warmup; round += 1) {
  await deliver(chorus, round);
  await deliver(bare, round);
}
const perBlock = Math.ceil(options.rounds / options.blocks);
while (samples.chorus.length < options.rounds) {
  for (let index = 0; index < perBlock && samples.chorus.length < options.rounds; index += 1, round += 1) samples.chorus.push(await deliver(chorus, round));
  for (let index = 0; index < perBlock && samples.bare.length < options.rounds; index += 1, round += 1) samples.bare.push(await deliver(bare, round));
}
[...chorus.sockets, ...bare.sockets].forEach((socket) => socket.disconnect());
console.log(JSON.stringify(samples));
