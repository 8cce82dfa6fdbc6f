import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadTurnContext } from "@/lib/agents/load-turn-context";
import type { Database } from "@/lib/db/open-database";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";

/**
 * The turn's loading statement says what the agent and the person asking have in memory, which
 * decides whether the question is embedded at all: a wrong "yes" costs an embedding, a wrong "no"
 * hides a memory, and another person's episodes must never count.
 */
describe("a turn's memory presence, loaded with the turn", () => {
  let db: Database;
  let projectId: string;
  let channelId: string;
  let agentId: string;
  let otherAgentId: string;
  const people: Record<"ann" | "ben", string> = { ann: "", ben: "" };
  let seq = 0;

  beforeAll(async () => {
    db = await createTestDatabase();
    const { project, channel } = await createProjectWithChannel(db.prisma);
    projectId = project.id;
    channelId = channel.id;
    for (const name of ["ann", "ben"] as const) {
      people[name] = (await db.prisma.user.create({ data: { id: randomUUID(), name, email: `${name}-${randomUUID()}@example.com`, handle: `${name}-${randomUUID().slice(0, 8)}` } })).id;
    }
    const agent = (handle: string) => db.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#0ea5e9", systemPrompt: "x", model: "offline" } });
    agentId = (await agent("keeper")).id;
    otherAgentId = (await agent("other")).id;
  });
  afterAll(() => db.close());

  const ask = async (authorUserId: string | null, conversationId = channelId) => {
    const message = await db.prisma.message.create({ data: { conversationId, seq: ++seq, role: authorUserId ? "user" : "assistant", content: `question ${seq}`, authorUserId } });
    const turn = await loadTurnContext(db.prisma, {
      id: randomUUID(), agentId, conversationId, messageId: message.id, attempt: 1, failures: 0, askMessageId: null, mode: "direct", historyLimit: null, depth: 0, allowHandoff: false, regeneratesMessageId: null,
    });
    return turn.memory;
  };
  const episode = async (data: { agentId: string; userId: string | null; conversationId: string }) => {
    const sessionEnd = await db.prisma.sessionEnd.create({ data: { id: randomUUID(), conversationId: data.conversationId, fromSeq: seq, toSeq: ++seq, status: "done" } });
    const now = new Date();
    await db.prisma.episode.create({ data: { id: randomUUID(), sessionEndId: sessionEnd.id, summary: "s", facts: [], fromSeq: 1, toSeq: 2, startedAt: now, endedAt: now, embedding: [1, 0], ...data } });
  };

  it("counts only the asker's own episodes with this agent, and this conversation's own summaries", async () => {
    expect(await ask(people.ann)).toEqual({ knowledge: false, episodes: false, procedures: [] });
    const elsewhere = (await createChannel(db.prisma, { projectId, name: "elsewhere" })).id;
    await episode({ agentId, userId: people.ben, conversationId: channelId });
    await episode({ agentId: otherAgentId, userId: people.ann, conversationId: channelId });
    await episode({ agentId, userId: null, conversationId: elsewhere });
    expect((await ask(people.ann)).episodes).toBe(false);
    expect((await ask(null)).episodes).toBe(false);
    expect((await ask(people.ben)).episodes).toBe(true);
    expect((await ask(null, elsewhere)).episodes).toBe(true);
    await episode({ agentId, userId: null, conversationId: channelId });
    expect((await ask(people.ann)).episodes).toBe(true);
  });

  it("says whether the agent has knowledge, and lists its approved procedures newest first, without their embeddings (ranked where they are stored)", async () => {
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId: otherAgentId, name: "d.md", mediaType: "text/markdown", bytes: 1, status: "ready" } });
    await db.prisma.knowledgeChunk.create({ data: { id: randomUUID(), documentId: document.id, agentId: otherAgentId, ordinal: 0, content: "c", embedding: [1, 0] } });
    expect((await ask(people.ann)).knowledge).toBe(false);
    await db.prisma.knowledgeChunk.create({ data: { id: randomUUID(), documentId: document.id, agentId, ordinal: 1, content: "c", embedding: [0, 1] } });
    expect((await ask(people.ann)).knowledge).toBe(true);

    const procedure = (name: string, status: string, updatedAt: Date, owner = agentId) =>
      db.prisma.procedure.create({ data: { id: randomUUID(), agentId: owner, name, trigger: name === "older" ? "\\bolder\\b" : null, steps: [`${name} step`], status, embedding: [0.6, 0.8], updatedAt } });
    await procedure("older", "approved", new Date(Date.now() - 60_000));
    await procedure("newer", "approved", new Date());
    await procedure("pending", "pending", new Date());
    await procedure("rejected", "rejected", new Date());
    await procedure("someone else's", "approved", new Date(), otherAgentId);
    const { procedures } = await ask(people.ann);
    expect(procedures).toEqual([
      { id: expect.any(String), name: "newer", trigger: null, steps: ["newer step"] },
      { id: expect.any(String), name: "older", trigger: "\\bolder\\b", steps: ["older step"] },
    ]);
  });
});
