import { randomUUID } from "node:crypto";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { connectTo } from "@/test/support/node-process";
import type { LoadClientOptions, TurnRecord } from "./load-plan";

/**
 * The people of `npm run bench -- load`, in a process of their own like browsers (the bench's
 * process serves the fake model): each joins its conversation on its node, then all post on the
 * plan's schedule. Each turn is timed here, as its person sees it: the post, the turn's first
 * streamed piece and its stored reply. Prints the turns as JSON.
 */
const { people, posts, idleMs, timeoutMs } = JSON.parse(process.env.BENCH_CLIENT!) as LoadClientOptions;

let burstStart = performance.now();
const now = () => performance.now() - burstStart;
const postedAt = new Map<string, number>();
const firstTokenAt = new Map<string, number>();
const replies = new Map<string, { at: number; message: MessageDto }>();
const expected = posts.reduce((sum, post) => sum + post.turns, 0);
let changed = () => undefined as void;

async function connect({ url, cookie, conversationId }: LoadClientOptions["people"][number]) {
  const socket = await connectTo(url, cookie);
  socket.on("message:delta", (delta) => {
    // A turn retried on another node starts again at index 0; its first try's first piece counts.
    if (delta.index === 0 && !firstTokenAt.has(delta.dispatchId)) firstTokenAt.set(delta.dispatchId, now());
  });
  socket.on("message:created", (message) => {
    const dispatchId = message.metadata.dispatchId;
    if (message.author.kind === "agent" && dispatchId && !replies.has(dispatchId)) replies.set(dispatchId, { at: now(), message });
    changed();
  });
  const ack = await socket.timeout(10_000).emitWithAck("conversation:join", { conversationId });
  if ("error" in ack) throw new Error(`joining failed: ${ack.error.message}`);
  return { socket, conversationId };
}

const sockets = await Promise.all(people.map(connect));
await new Promise((resolve) => setTimeout(resolve, idleMs));

burstStart = performance.now();
const answered = () => [...replies.values()].filter(({ message }) => postedAt.has(message.metadata.replyToMessageId ?? "")).length;
const allAnswered = new Promise<void>((resolve, reject) => {
  const timer = setTimeout(() => reject(new Error(`${answered()} of ${expected} turns answered within ${timeoutMs} ms`)), timeoutMs);
  changed = () => {
    if (answered() < expected) return;
    clearTimeout(timer);
    resolve();
  };
});
await Promise.all(
  posts.map(async (post) => {
    await new Promise((resolve) => setTimeout(resolve, post.atMs - now()));
    const { socket, conversationId } = sockets[post.person]!;
    const sentAt = now();
    const ack = await socket.timeout(10_000).emitWithAck("message:send", { conversationId, clientId: randomUUID(), content: post.content });
    if (!("data" in ack)) throw new Error(`posting failed: ${ack.error.message}`);
    postedAt.set(ack.data.id, sentAt);
    changed();
  }),
);
await allAnswered;

const turns: TurnRecord[] = [];
for (const [dispatchId, { at, message }] of replies) {
  const posted = postedAt.get(message.metadata.replyToMessageId ?? "");
  if (posted === undefined || message.author.kind !== "agent") continue;
  const firstToken = firstTokenAt.get(dispatchId);
  // A turn that failed replies with the reason and streams nothing: say so rather than time it.
  if (firstToken === undefined) throw new Error(`${message.author.displayName} replied without streaming: ${message.content}`);
  turns.push({ conversationId: message.conversationId, agentId: message.author.id, postedAt: posted, firstTokenAt: firstToken, repliedAt: at });
}
sockets.forEach(({ socket }) => socket.disconnect());
console.log(JSON.stringify(turns));
