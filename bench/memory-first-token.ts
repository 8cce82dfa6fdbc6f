import { randomUUID } from "node:crypto";
import { createChannel } from "@/lib/conversations/create-channel";
import { createOpenAIEmbedder } from "@/lib/memory/embedder";
import { startAgents, startMemory } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "@/test/support/fake-openai";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { TestApp } from "@/test/support/test-app";
import { measureDirectFirstToken, measureFirstToken } from "./agents";
import { percentile, result, type BenchResult } from "./measure";
import { startBenchServer } from "./bench-server";

const DIMENSIONS = 256;
const random = () => Array.from({ length: DIMENSIONS }, () => Math.random() - 0.5);

/**
 * Post → first token with memory on: the agent has 1,000 knowledge chunks, 100 episodes with
 * the people asking and 20 approved procedures, and every turn embeds the question and runs
 * the three searches. Against the same model call straight through the SDK.
 */
export async function measureFirstTokenWithMemory(): Promise<BenchResult> {
  const fake = await FakeOpenAI.start();
  const app = await startBenchServer(fake.baseURL);
  try {
    const { project } = await createProjectWithChannel(app.prisma);
    const users: Awaited<ReturnType<TestApp["signUp"]>>[] = [];
    for (let index = 0; index < 10; index += 1) users.push(await app.signUp(`memorybench${index}`));
    const agent = await app.prisma.agent.create({ data: { projectId: project.id, handle: "bot0", displayName: "Bot", color: "#123456", systemPrompt: "Answer.", provider: "openai", model: "gpt-4o-mini" } });
    const channel = await createChannel(app.prisma, { userId: users[0]!.id, projectId: project.id, name: "bench", agentIds: [agent.id] });
    const document = await app.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: "handbook.md", mediaType: "text/markdown", bytes: 1, status: "ready" } });
    await app.prisma.knowledgeChunk.createMany({ data: Array.from({ length: 1_000 }, (_, ordinal) => ({ id: randomUUID(), documentId: document.id, agentId: agent.id, ordinal, content: `Handbook passage ${ordinal}: how we work.`, embedding: random() })) });
    const now = new Date();
    // An episode per person per session end (the table allows one): ten ended sessions of ten people.
    const sessionEnds = Array.from({ length: 10 }, (_, index) => ({ id: randomUUID(), conversationId: channel.id, fromSeq: 2 * index + 1, toSeq: 2 * index + 2, status: "done" }));
    await app.prisma.sessionEnd.createMany({ data: sessionEnds });
    await app.prisma.episode.createMany({
      data: Array.from({ length: 100 }, (_, index) => ({
        id: randomUUID(),
        agentId: agent.id,
        userId: users[index % users.length]!.id,
        sessionEndId: sessionEnds[Math.floor(index / users.length)]!.id,
        conversationId: channel.id,
        summary: `Session ${index}`,
        facts: [],
        fromSeq: 1,
        toSeq: 2,
        startedAt: now,
        endedAt: now,
        embedding: random(),
      })),
    });
    await app.prisma.procedure.createMany({ data: Array.from({ length: 20 }, (_, index) => ({ id: randomUUID(), agentId: agent.id, name: `Procedure ${index}`, trigger: `\\bprocedure-${index}\\b`, steps: ["a", "b"], status: "approved", embedding: random() })) });
    await startMemory(app.runtime, createOpenAIEmbedder({ apiKey: "bench", baseURL: fake.baseURL, model: "text-embedding-3-small", dimensions: DIMENSIONS }));
    startAgents(app.runtime, { pollMs: 1_000 });
    const firstToken = await measureFirstToken(app.url, users, channel.id);
    const direct = await measureDirectFirstToken(fake.baseURL);
    return result("agents.first_token_memory_p50_ms", "ms", percentile(firstToken, 50), percentile(direct, 50), { addedAtMost: 12 });
  } finally {
    await app.close();
    await fake.close();
  }
}
