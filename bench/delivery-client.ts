import { randomUUID } from "node:crypto";
import { io as connectSocket, type Socket } from "socket.io-client";

/**
 * The room's 50 people, in a process of their own like browsers: a post's delivery is timed
 * from the sender's emit until every socket has the message. The same code times Chorus
 * (`message:send` → `message:created`) and the bare Socket.IO broadcast it is compared with.
 * Prints the samples as JSON.
 */
interface Options {
  url: string;
  /** One socket per cookie (Chorus), or this many anonymous sockets (bare). */
  cookies?: string[];
  sockets?: number;
  conversationId?: string;
  rounds: number;
  /** Rounds run first and not timed: the server's code and the database's plans warm up. */
  warmup: number;
  mode: "chorus" | "bare";
}

const { url, cookies, sockets: anonymous = 0, conversationId, rounds, warmup, mode } = JSON.parse(process.env.BENCH_CLIENT!) as Options;
const sendEvent = mode === "chorus" ? "message:send" : "send";
const receiveEvent = mode === "chorus" ? "message:created" : "message";

async function connect(cookie?: string): Promise<Socket> {
  const socket = connectSocket(url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { origin: url, ...(cookie ? { cookie } : {}) } });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  if (mode === "chorus") await socket.timeout(10_000).emitWithAck("conversation:join", { conversationId });
  return socket;
}

const sockets = await Promise.all(cookies ? cookies.map(connect) : Array.from({ length: anonymous }, () => connect()));
const samples: number[] = [];
for (let round = 0; round < warmup + rounds; round += 1) {
  const clientId = randomUUID();
  const payload = { conversationId, clientId, content: `delivery ${round}` };
  const allReceived = Promise.all(
    sockets.map(
      (socket) =>
        new Promise<void>((resolve) => {
          const onMessage = (message: { clientId?: string | null }) => {
            if (message.clientId !== clientId) return;
            socket.off(receiveEvent, onMessage);
            resolve();
          };
          socket.on(receiveEvent, onMessage);
        }),
    ),
  );
  const started = performance.now();
  const ack = (await sockets[round % sockets.length]!.timeout(10_000).emitWithAck(sendEvent, payload)) as { error?: { message: string } } | undefined;
  if (ack?.error) throw new Error(`posting failed: ${ack.error.message}`);
  await allReceived;
  if (round >= warmup) samples.push(performance.now() - started);
}
sockets.forEach((socket) => socket.disconnect());
console.log(JSON.stringify(samples));
