import { randomUUID } from "node:crypto";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { handoffModes, type HandoffMode } from "@/lib/handoffs/handoff-modes";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "@/test/support/fake-openai";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { emitWithAck, TestApp } from "@/test/support/test-app";
import { measureDirectFirstToken, measureFirstToken } from "./agents";
import { percentile, result, type BenchResult } from "./measure";
import { startBenchServer } from "./bench-server";

const HISTORY = 500;
const ROUNDS_PER_MODE = 5;
/** The specialist's working memory: a large model's, so that every mode shows its full cost. */
const SPECIALIST_BUDGET = 128_000;

/**
 * Handoffs: on one 500-message conversation, what each sharing mode sends the specialist (prompt
 * tokens) and how long assembling it takes; and the handoff's overhead, from the post to the
 * specialist's first token when the orchestrator's tool call comes back at once, against the
 * same two model calls made straight through the SDK.
 */
export async function measureHandoffs(): Promise<BenchResult[]> {
  const fake = await FakeOpenAI.start();
  const app = await startBenchServer(fake.baseURL);
  try {
    const { project } = await createProjectWithChannel(app.prisma);
    const users = [];
    for (let index = 0; index < 10; index += 1) users.push(await app.signUp(`handoffbench${index}`));
    const agent = (handle: string, contextSettings = {}) =>
      app.prisma.agent.create({ data: { projectId: project.id, handle, displayName: handle, color: "#123456", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini", contextSettings } });
    const specialist = await agent("specialist", { maxWorkingMemoryTokens: SPECIALIST_BUDGET });
    const orchestrator = await agent("orchestrator");
    await app.prisma.agent.update({
      where: { id: orchestrator.id },
      data: { handoffSettings: { orchestrator: true, maxDepth: 3, specialists: [{ agentId: specialist.id, mode: "summary", recentN: 10, forkHistory: 5 }], routes: [] } },
    });
    let mode: HandoffMode = "summary";
    fake.respondWith((request) =>
      request.tools?.some((tool) => tool.function.name === "handoff")
        ? { content: "", toolCalls: [{ name: "handoff", arguments: JSON.stringify({ target: "specialist", summary: "The person asks about the release plan.", reason: "bench", mode }) }] }
        : { content: "Here is the plan." },
    );
    startAgents(app.runtime, { pollMs: 1_000 });

    // The handoff's overhead, in a conversation of its own (the summary mode's two calls).
    const quick = await createChannel(app.prisma, { userId: users[0]!.id, projectId: project.id, name: "overhead", agentIds: [orchestrator.id] });
    const handoffFirstToken = await measureFirstToken(app.url, users, quick.id, "@orchestrator question");
    const direct = await measureDirectFirstToken(fake.baseURL, async (client) => {
      const stream = await client.chat.completions.create({ model: "gpt-4o-mini", stream: true, messages: [{ role: "user", content: "route this" }], tools: [{ type: "function", function: { name: "handoff", parameters: {} } }] });
      for await (const chunk of stream) void chunk;
    });

    // Every mode on the same long conversation.
    const long = await createChannel(app.prisma, { userId: users[0]!.id, projectId: project.id, name: "long", agentIds: [orchestrator.id] });
    await seedHistory(app, long.id, users.map((user) => user.id));
    const socket = await app.connect(users[0]!);
    await emitWithAck(socket, "conversation:join", { conversationId: long.id });
    const perMode: BenchResult[] = [];
    const tokens: Partial<Record<HandoffMode, number>> = {};
    const assembly: Partial<Record<HandoffMode, number>> = {};
    for (const each of handoffModes) {
      mode = each;
      const snapshots: ContextSnapshot[] = [];
      for (let round = 0; round < ROUNDS_PER_MODE; round += 1) snapshots.push(await askAndReadSpecialist(app, socket, long.id, specialist.id));
      tokens[each] = percentile(snapshots.map((snapshot) => snapshot.budget.usedTokens), 50);
      assembly[each] = percentile(snapshots.map((snapshot) => snapshot.assemblyMs), 50);
    }
    for (const each of handoffModes) {
      perMode.push(result(`handoffs.prompt_tokens.${each}`, "tokens", tokens[each]!, tokens.full!));
      perMode.push(result(`handoffs.assembly_ms.${each}`, "ms", assembly[each]!, assembly.full!));
    }
    return [result("handoffs.overhead_p50_ms", "ms", percentile(handoffFirstToken, 50), percentile(direct, 50), { addedAtMost: 12 }), ...perMode];
  } finally {
    await app.close();
    await fake.close();
  }
}

/** HISTORY messages from several people, as a long working thread would have. */
async function seedHistory(app: TestApp, conversationId: string, userIds: string[]): Promise<void> {
  const now = Date.now();
  await app.prisma.message.createMany({
    data: Array.from({ length: HISTORY }, (_, index) => ({
      id: randomUUID(),
      conversationId,
      seq: index + 2,
      authorUserId: userIds[index % userIds.length]!,
      role: "user" as const,
      content: `Update ${index}: the release checklist item ${index % 17} is done, and the staging database was migrated again.`,
      metadata: { isHandoffSummary: false, isToolResult: false, timestamp: new Date(now + index).toISOString() },
      createdAt: new Date(now + index),
    })),
  });
  await app.prisma.conversation.update({ where: { id: conversationId }, data: { lastSeq: HISTORY + 1 } });
}

/** One question handed off; the specialist's snapshot once it has answered. */
async function askAndReadSpecialist(app: TestApp, socket: Awaited<ReturnType<TestApp["connect"]>>, conversationId: string, specialistId: string): Promise<ContextSnapshot> {
  await app.prisma.rateBucket.deleteMany();
  const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content: "@orchestrator what is the release plan?" });
  if (!("data" in ack)) throw new Error(ack.error.message);
  const question = ack.data.id;
  for (;;) {
    const reply = await app.prisma.message.findFirst({ where: { authorAgentId: specialistId, metadata: { path: ["replyToMessageId"], equals: question } }, select: { id: true, metadata: true } });
    if (reply && !(reply.metadata as { source?: string }).source) {
      const row = await app.prisma.contextSnapshot.findFirstOrThrow({ where: { replyMessageId: reply.id } });
      return row.snapshot as unknown as ContextSnapshot;
    }
    if (reply) {
      // Fork mode: the merged result names the fork; the specialist's turn ran there.
      const forkId = (reply.metadata as { forkId: string }).forkId;
      const row = await app.prisma.contextSnapshot.findFirstOrThrow({ where: { conversationId: forkId } });
      return row.snapshot as unknown as ContextSnapshot;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
