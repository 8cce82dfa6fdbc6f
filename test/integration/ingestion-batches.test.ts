import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "@/lib/db/open-database";
import { chunkText } from "@/lib/knowledge/chunk-text";
import type { DocumentSummary } from "@/lib/knowledge/document-summary";
import { startKnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { countTokens } from "@/lib/llm/token-counter";
import { createOpenAIEmbedder, normalise, type Embedder, type RequestLimits } from "@/lib/memory/embedder";
import { createMemoryStores } from "@/lib/memory/memory-stores";
import { vectorStore } from "@/lib/memory/vector-store";
import { FakeOpenAI } from "../support/fake-openai";
import { createOfflineAgent, createProjectWithChannel } from "../support/fixtures";
import { createTestDatabase } from "../support/test-database";
import { until } from "../support/until";

const MODEL = "text-embedding-3-small";

/** Passes requests on to the fake endpoint, keeping each embeddings request's inputs. */
async function recordingProxy(target: string): Promise<{ url: string; inputs: string[][]; close(): Promise<void> }> {
  const inputs: string[][] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on("data", (part: Buffer) => parts.push(part));
    req.on("end", async () => {
      const body = Buffer.concat(parts).toString();
      if (req.url?.endsWith("/embeddings")) inputs.push((JSON.parse(body) as { input: string[] }).input);
      const answer = await fetch(`${target}${req.url!.replace(/^\/v1/, "")}`, { method: req.method, headers: { "content-type": "application/json" }, body });
      res.writeHead(answer.status, { "content-type": answer.headers.get("content-type") ?? "application/json" });
      res.end(Buffer.from(await answer.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    inputs,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A document's ingestion with an OpenAI-compatible embedder: batched requests within the limits, progress as they come back. */
describe("ingestion with an OpenAI-compatible embedder", () => {
  let db: Database;
  let fake: FakeOpenAI;
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    fake = await FakeOpenAI.start();
    proxy = await recordingProxy(fake.baseURL);
    const { project } = await createProjectWithChannel(db.prisma);
    agentId = (await db.prisma.agent.create({ data: { projectId: project.id, handle: "reader", displayName: "Reader", color: "#0ea5e9", systemPrompt: "x", model: "offline" } })).id;
  });
  afterAll(async () => {
    await proxy.close();
    await fake.close();
    await db.close();
  });

  it("sends the chunks in batches within the inputs and tokens per request, and progress moves while they are embedded", async () => {
    // Small limits, so a document of a few hundred chunks needs several requests per progress step.
    const limits: RequestLimits = { maxInputs: 40, maxTokens: 5_000 };
    const embedder = createOpenAIEmbedder({ apiKey: "test-key", baseURL: proxy.url, model: MODEL, dimensions: 8, limits });
    const text = Array.from({ length: 2_500 }, (_, i) => `Rule ${i}: the team reviews release ${i} on a Thursday, with the checklist, the notes and the people on call.`).join("\n\n");
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(300);
    const progress: DocumentSummary[] = [];
    fake.embeddingDelayMs = 30;
    const requestsBefore = fake.embeddingRequests;
    const worker = startKnowledgeWorker({ prisma: db.prisma, embedder, onProgress: (summary) => progress.push(summary) }, { pollMs: 100 });
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name: "handbook.md", mediaType: "text/markdown", bytes: text.length, text } });
    try {
      worker.wake();
      await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).status === "ready", "the document to be indexed", 30_000);
    } finally {
      await worker.stop();
      fake.embeddingDelayMs = 0;
    }

    // Fewer requests than chunks, each within both limits, every chunk sent once.
    const requests = fake.embeddingRequests - requestsBefore;
    expect(requests).toBe(proxy.inputs.length);
    expect(requests).toBeLessThan(chunks.length / 5);
    for (const inputs of proxy.inputs) {
      expect(inputs.length).toBeLessThanOrEqual(limits.maxInputs);
      expect(inputs.reduce((sum, input) => sum + countTokens(input, MODEL), 0)).toBeLessThanOrEqual(limits.maxTokens);
    }
    // (Two steps may be in flight at once, so requests arrive in any order.)
    expect(proxy.inputs.flat().sort()).toEqual([...chunks].sort());

    // Progress was reported while the chunks were embedded, moving up in steps before the document was ready.
    const moving = progress.filter((summary) => summary.status === "processing" && summary.progress > 0).map((summary) => summary.progress);
    expect(moving.length).toBeGreaterThanOrEqual(5);
    expect(moving.every((value, index) => value <= 1 && (index === 0 || value > moving[index - 1]!))).toBe(true);
    expect(moving[0]).toBeLessThan(0.5);
    expect(progress.at(-1)).toMatchObject({ status: "ready", progress: 1, chunkCount: chunks.length });

    // Each chunk got its own vector: the fake endpoint's for its text, in the chunk's place.
    const stored = await db.prisma.knowledgeChunk.findMany({ where: { documentId: document.id }, orderBy: { ordinal: "asc" } });
    expect(stored.map((chunk) => chunk.content)).toEqual(chunks);
    const [expected] = await createOpenAIEmbedder({ apiKey: "test-key", baseURL: fake.baseURL, model: MODEL, dimensions: 8 }).embed([chunks[123]!]);
    stored[123]!.embedding.forEach((value, index) => expect(value).toBeCloseTo(expected![index]!, 6));
  });

  it("splits one call into as few requests as the limits allow", async () => {
    const embedder = createOpenAIEmbedder({ apiKey: "test-key", baseURL: proxy.url, model: MODEL, dimensions: 8, limits: { maxInputs: 3, maxTokens: 1_000 } });
    const before = proxy.inputs.length;
    const texts = ["one", "two", "three", "four", "five", "six", "seven"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(7);
    expect(proxy.inputs.slice(before)).toEqual([["one", "two", "three"], ["four", "five", "six"], ["seven"]]);
    // A document's steps: about a tenth of its chunks, at least 32, at most the inputs of one request.
    const openAI = createOpenAIEmbedder({ apiKey: "test-key", baseURL: proxy.url, model: MODEL, dimensions: 8 });
    expect([10, 320, 2_000, 50_000].map((total) => openAI.batchFor!(total))).toEqual([32, 32, 200, 2_048]);
  });
});

/** A model on this machine: each step is written as it is embedded, while the next is embedded. */
describe("ingestion with a local embedder", () => {
  let db: Database;
  let agentId: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    agentId = (await createOfflineAgent(db.prisma)).id;
  });
  afterAll(() => db.close());

  /** Vectors from the text's length and first letters; `failAt` makes that call (counted from 1) fail once. */
  const localEmbedder = (failAt?: number): Embedder & { calls: number } => {
    const embedder = {
      name: "test:local",
      dimensions: 4,
      local: true,
      calls: 0,
      batchFor: () => 10,
      async embed(texts: string[]) {
        embedder.calls += 1;
        await new Promise((resolve) => setTimeout(resolve, 5));
        if (embedder.calls === failAt) throw new Error("the model stopped");
        return texts.map((text) => normalise([text.length, text.charCodeAt(5), text.charCodeAt(6), 1]));
      },
      close: async () => undefined,
    };
    return embedder;
  };

  const ingest = async (embedder: Embedder, text: string, timeoutMs = 20_000) => {
    const progress: DocumentSummary[] = [];
    const worker = startKnowledgeWorker({ prisma: db.prisma, embedder, onProgress: (summary) => progress.push(summary) }, { pollMs: 50 });
    const document = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name: `${randomUUID()}.md`, mediaType: "text/markdown", bytes: text.length, text } });
    try {
      worker.wake();
      await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } })).status === "ready", "the document to be indexed", timeoutMs);
    } finally {
      await worker.stop();
    }
    return { document: await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: document.id } }), progress };
  };
  const text = Array.from({ length: 500 }, (_, i) => `Rule ${i}: the team reviews release ${i} on a Thursday, with the checklist and the notes.`).join("\n\n");

  it("writes every chunk once, in order, with its own vector, reporting progress on every step", async () => {
    const chunks = chunkText(text);
    expect(chunks.length).toBeGreaterThan(30);
    const { document, progress } = await ingest(localEmbedder(), text);
    expect(document).toMatchObject({ status: "ready", chunkCount: chunks.length, attempt: 1 });
    const stored = await db.prisma.knowledgeChunk.findMany({ where: { documentId: document.id }, orderBy: { ordinal: "asc" } });
    expect(stored.map((chunk) => [chunk.ordinal, chunk.content])).toEqual(chunks.map((chunk, ordinal) => [ordinal, chunk]));
    stored.forEach((chunk) => chunk.embedding.forEach((value, index) => expect(value).toBeCloseTo(normalise([chunk.content.length, chunk.content.charCodeAt(5), chunk.content.charCodeAt(6), 1])[index]!, 6)));
    // A report per step of ten, the steps written inside the transaction included.
    const moving = progress.filter((summary) => summary.status === "processing" && summary.progress > 0).map((summary) => summary.progress);
    expect(moving).toHaveLength(Math.ceil(chunks.length / 10));
    expect(moving.every((value, index) => index === 0 || value > moving[index - 1]!)).toBe(true);
  });

  it("starts over when the model fails midway: the next try writes every chunk once", async () => {
    const steps = Math.ceil(chunkText(text).length / 10);
    // The last step fails, after the others were written.
    const { document } = await ingest(localEmbedder(steps), text);
    expect(document).toMatchObject({ status: "ready", attempt: 2, failures: 1 });
    const stored = await db.prisma.knowledgeChunk.findMany({ where: { documentId: document.id }, select: { ordinal: true } });
    expect(stored).toHaveLength(document.chunkCount);
    expect(new Set(stored.map((chunk) => chunk.ordinal)).size).toBe(document.chunkCount);
  });

  it("indexes a 1,000-page manual (5 MB of text), a step at a time", async () => {
    const page = (n: number) => `Page ${n}. ${"The release checklist asks for the notes, the owners and the rollback plan before Thursday. ".repeat(55)}`;
    const manual = Array.from({ length: 1_000 }, (_, n) => page(n)).join("\n\n");
    expect(manual.length).toBeGreaterThan(5_000_000);
    const fast = { ...localEmbedder(), batchFor: () => 200, embed: async (texts: string[]) => texts.map((chunk) => normalise([chunk.length, chunk.charCodeAt(5), chunk.charCodeAt(6), 1])) };
    const { document } = await ingest(fast, manual, 120_000);
    expect(document).toMatchObject({ status: "ready", attempt: 1, chunkCount: chunkText(manual).length });
    expect(await db.prisma.knowledgeChunk.count({ where: { documentId: document.id } })).toBe(document.chunkCount);
  }, 180_000);

  it("keeps the replaced version searchable, and the new one's written steps out of searches, until the switch", async () => {
    // An agent of its own: the other tests' documents are not in its searches.
    const { id: agentId } = await createOfflineAgent(db.prisma, "replacer");
    const vectors = vectorStore(db, "exact", 4);
    const search = async () => {
      const rows = await createMemoryStores({ prisma: db.prisma, vectors, embedder: localEmbedder() }).semantic({
        agentId, userId: null, conversationId: "none", text: "release", semanticTopK: 500, knowledgeRetrieval: "vector", episodicTopK: 0, procedureThreshold: 1,
        presence: { knowledge: true, episodes: false, procedures: [] },
        embedding: async () => normalise([80, 82, 117, 1]),
      });
      return new Set(rows.map((row) => row.content.split(":")[0] ?? ""));
    };
    const name = "policy.md";
    const version = (tag: string) => Array.from({ length: 800 }, (_, i) => `${tag} ${i}: the team reviews release ${i} on a Thursday, with the checklist.`).join("\n\n");
    const old = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name, mediaType: "text/markdown", bytes: 1, text: version("Old") } });
    let worker = startKnowledgeWorker({ prisma: db.prisma, embedder: localEmbedder(), onProgress: () => undefined }, { pollMs: 50 });
    worker.wake();
    await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: old.id } })).status === "ready", "the first version", 20_000);
    await worker.stop();

    // The new version's embedding stops after two steps until released.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const slow = localEmbedder();
    const embed = slow.embed.bind(slow);
    slow.embed = async (texts) => {
      if (slow.calls === 3) await held;
      return embed(texts);
    };
    const replacement = await db.prisma.knowledgeDocument.create({ data: { id: randomUUID(), agentId, name, mediaType: "text/markdown", bytes: 1, text: version("New") } });
    worker = startKnowledgeWorker({ prisma: db.prisma, embedder: slow, onProgress: () => undefined }, { pollMs: 50 });
    worker.wake();
    try {
      await until(async () => (await db.prisma.knowledgeChunk.count({ where: { documentId: replacement.id } })) >= 20, "two steps written");
      // Committed step by step, yet searches see only the old version, whole.
      expect(await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: replacement.id } })).toMatchObject({ status: "processing" });
      const meanwhile = await search();
      expect([...meanwhile].every((label) => label.startsWith("Old"))).toBe(true);
      expect(meanwhile.size).toBe(await db.prisma.knowledgeChunk.count({ where: { documentId: old.id } }));
      release();
      await until(async () => (await db.prisma.knowledgeDocument.findUniqueOrThrow({ where: { id: replacement.id } })).status === "ready", "the new version", 20_000);
    } finally {
      release();
      await worker.stop();
    }
    const after = await search();
    expect([...after].every((label) => label.startsWith("New"))).toBe(true);
    expect(await db.prisma.knowledgeDocument.count({ where: { agentId, name } })).toBe(1);
  });
});

