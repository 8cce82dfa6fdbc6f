import { randomUUID } from "node:crypto";
import { io as connectSocket } from "socket.io-client";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack, MessageDelta } from "@/lib/realtime/events";

/**
 * The person asking, in a process of its own like a browser: the in-process embedded database
 * blocks its event loop while it works, which would delay a client in the same process and
 * charge the server for it. Asks ROUNDS questions one at a time; prints the samples as JSON.
 */
const { url, cookies, conversationId, rounds, warmup, pauseMs, question } = JSON.parse(process.env.BENCH_CLIENT!) as {
  url: string;
  /** One person per cookie, taking turns, so nobody reaches the rate limit. */
  cookies: string[];
  conversationId: string;
  rounds: number;
  /** Rounds run first and not timed: the server's code and the database's plans warm up. */
  warmup: number;
  /** After each reply, before the next question (bench/agents.ts, PAUSE_MS). */
  pauseMs: number;
  question: string;
};

const firstDelta = new Map<string, { at: number; dispatchId: string }>();
const repliedDispatches = new Set<string>();
let changed = () => undefined as void;
const until = async (condition: () => boolean) => {
  while (!condition()) await new Promise<void>((resolve) => (changed = resolve));
};

async function connect(cookie: string) {
  const socket = connectSocket(url, { transports: ["websocket"], reconnection: false, forceNew: true, extraHeaders: { origin: url, cookie } });
  await new Promise<void>((resolve, reject) => {
    socket.once("connect", resolve);
    socket.once("connect_error", reject);
  });
  socket.on("message:delta", (delta: MessageDelta) => {
    if (!firstDelta.has(delta.replyToMessageId)) firstDelta.set(delta.replyToMessageId, { at: performance.now(), dispatchId: delta.dispatchId });
    changed();
  });
  socket.on("message:created", (message: MessageDto) => {
    if (message.author.kind === "agent" && message.metadata.dispatchId) repliedDispatches.add(message.metadata.dispatchId);
    changed();
  });
  const ask = (event: string, payload: unknown) => socket.timeout(10_000).emitWithAck(event, payload) as Promise<Ack<MessageDto>>;
  await ask("conversation:join", { conversationId });
  return { socket, ask };
}

const people = await Promise.all(cookies.map(connect));
const samples: number[] = [];
for (let round = 0; round < warmup + rounds; round += 1) {
  const { ask } = people[round % people.length]!;
  const started = performance.now();
  const ack = await ask("message:send", { conversationId, clientId: randomUUID(), content: `${question} ${round}` });
  if (!("data" in ack)) throw new Error(`posting failed: ${ack.error.message}`);
  const questionId = ack.data.id;
  await until(() => firstDelta.has(questionId));
  const { at, dispatchId } = firstDelta.get(questionId)!;
  if (round >= warmup) samples.push(at - started);
  // The reply finishes, and its turn ends, before the next question: an agent still busy never skews a sample.
  await until(() => repliedDispatches.has(dispatchId));
  await new Promise((resolve) => setTimeout(resolve, pauseMs));
}
people.forEach(({ socket }) => socket.disconnect());
console.log(JSON.stringify(samples));
