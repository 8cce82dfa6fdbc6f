import { randomUUID } from "node:crypto";
import OpenAI from "openai";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "@/test/support/fake-openai";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "@/test/support/test-app";
import { percentile, result, type BenchResult } from "./measure";
import { runBenchClient } from "./run-client";
import { startBenchServer } from "./bench-server";

const AGENTS = 10;
const ROUNDS = 60;
const WARMUP = 20;
/**
 * Between one sample and the next, on both sides of the ratio: a person reads a reply before
 * asking again. Without it a question lands while the turn before it is still ending (its job
 * ended, the worker looking for more work) and its sample counts that turn's tail; and a process
 * idle for a moment answers more slowly than one that has just answered, which must then hold on
 * both sides alike.
 */
const PAUSE_MS = 50;

/** Post → first streamed token, and how many messages per second agents get through. */
export async function measureAgents(): Promise<BenchResult[]> {
  const fake = await FakeOpenAI.start();
  const app = await startBenchServer(fake.baseURL);
  try {
    const { project } = await createProjectWithChannel(app.prisma);
    const users = [];
    for (let index = 0; index < 10; index += 1) users.push(await app.signUp(`agentbench${index}`));
    const agents = [];
    for (let index = 0; index < AGENTS; index += 1) {
      agents.push(await app.prisma.agent.create({
        data: { projectId: project.id, handle: `bot${index}`, displayName: `Bot ${index}`, color: "#123456", systemPrompt: "Answer.", provider: "openai", model: "gpt-4o-mini" },
      }));
    }
    const channelId = (await createChannel(app.prisma, { userId: users[0]!.id, projectId: project.id, name: "bench", agentIds: agents.map((agent) => agent.id) })).id;
    startAgents(app.runtime, { pollMs: 1_000 });
    // Before any socket of this process connects: the people asking are in a process of their own.
    const firstToken = await measureFirstToken(app.url, users, channelId);
    const sockets = await Promise.all(users.map(async (user) => {
      const socket = await app.connect(user);
      await emitWithAck(socket, "conversation:join", { conversationId: channelId });
      return socket;
    }));

    const direct = await measureDirectFirstToken(fake.baseURL);
    const tenAgents = await measureThroughput(app, sockets, channelId, agents.map((agent) => `@${agent.handle}`).join(" "), AGENTS);
    const oneAgent = await measureThroughput(app, sockets, channelId, "@bot0", 1);
    return [
      result("agents.first_token_p50_ms", "ms", percentile(firstToken, 50), percentile(direct, 50), { addedAtMost: 6 }),
      result("agents.dispatch_throughput", "messages/s", tenAgents, oneAgent),
    ];
  } finally {
    await app.close();
    await fake.close();
  }
}

function send(socket: ClientSocket, conversationId: string, content: string) {
  return emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content });
}

/** Post → first token of the reply, seen by clients in a process of their own (first-token-client.ts). */
export function measureFirstToken(url: string, users: TestUser[], conversationId: string, question = "@bot0 question"): Promise<number[]> {
  return runBenchClient("bench/first-token-client.ts", { url, cookies: users.map((user) => user.cookie), conversationId, rounds: ROUNDS, warmup: WARMUP, pauseMs: PAUSE_MS, question });
}

/** The baseline: the same model call straight through the SDK, no Chorus in between (after `before`, when given: e.g. a first call). */
export async function measureDirectFirstToken(baseURL: string, before?: (client: OpenAI) => Promise<void>): Promise<number[]> {
  const client = new OpenAI({ apiKey: "bench", baseURL });
  const samples: number[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    const started = performance.now();
    await before?.(client);
    const stream = await client.chat.completions.create({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: `question ${round}` }] });
    for await (const chunk of stream) {
      if (chunk.choices[0]?.delta?.content) {
        samples.push(performance.now() - started);
        break;
      }
    }
  }
  return samples;
}

const THROUGHPUT_MESSAGES = 30;

/** Messages per second from posting until every mentioned agent has replied to every message. */
async function measureThroughput(app: TestApp, sockets: ClientSocket[], conversationId: string, mentions: string, agentsPerMessage: number): Promise<number> {
  const expected = THROUGHPUT_MESSAGES * agentsPerMessage;
  let replies = 0;
  const listener = sockets[0]!;
  const done = new Promise<void>((resolve) => {
    const onMessage = (message: MessageDto) => {
      if (message.author.kind === "agent" && ++replies === expected) {
        listener.off("message:created", onMessage);
        resolve();
      }
    };
    listener.on("message:created", onMessage);
  });
  const started = performance.now();
  for (let index = 0; index < THROUGHPUT_MESSAGES; index += 1) {
    await send(sockets[index % sockets.length]!, conversationId, `${mentions} task ${index}`);
  }
  await done;
  return THROUGHPUT_MESSAGES / ((performance.now() - started) / 1000);
}
