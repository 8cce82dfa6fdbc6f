import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as uploadRoute } from "@/app/api/agents/[agentId]/knowledge/route";
import { startKnowledgeWorker } from "@/lib/knowledge/ingest-documents";
import { normalise, type Embedder } from "@/lib/memory/embedder";
import { createProjectWithChannel } from "../support/fixtures";
import { makeDocx, passwordProtectedDocx } from "../support/make-docx";
import { makePdf } from "../support/make-pdf";
import { zipBomb } from "../support/make-zip";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

/** Vectors from a text's length and letters: indexing in milliseconds, what these tests need. */
const fastEmbedder: Embedder = {
  name: "test:formats",
  dimensions: 4,
  local: true,
  embed: async (texts) => texts.map((text) => normalise([text.length, text.charCodeAt(0), text.charCodeAt(1), 1])),
  close: async () => undefined,
};

/** Each accepted kind of file, made in the test, uploaded as a browser would, indexed, and found as a reader expects. */
describe("knowledge uploads: the formats teams use", () => {
  let app: TestApp;
  let admin: TestUser;
  let agentId: string;
  let worker: ReturnType<typeof startKnowledgeWorker>;

  beforeAll(async () => {
    app = await TestApp.start();
    const { project } = await createProjectWithChannel(app.prisma);
    admin = await app.signUp("Adam");
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    agentId = (await app.prisma.agent.create({ data: { projectId: project.id, handle: "reader", displayName: "Reader", color: "#0ea5e9", systemPrompt: "x", model: "offline" } })).id;
    worker = startKnowledgeWorker({ prisma: app.prisma, embedder: fastEmbedder, onProgress: () => undefined }, { pollMs: 50 });
  });
  afterAll(async () => {
    await worker.stop();
    await app.close();
  });

  const post = async (name: string, bytes: Uint8Array | string) => {
    const form = new FormData();
    form.set("file", new File([typeof bytes === "string" ? bytes : Buffer.from(bytes)], name));
    const headers = { cookie: admin.cookie, origin: app.url, host: new URL(app.url).host };
    const response = await uploadRoute(new Request(`${app.url}/api/agents/${agentId}/knowledge`, { method: "POST", headers, body: form }), { params: Promise.resolve({ agentId }) });
    return { status: response.status, body: await response.json() };
  };
  const chunksOf = async (id: string) => (await app.prisma.knowledgeChunk.findMany({ where: { documentId: id }, orderBy: { ordinal: "asc" }, select: { content: true } })).map((chunk) => chunk.content);

  it("indexes a Word document, a web page, a CSV, JSON and source code, each as a reader would read it", async () => {
    const files: [string, Uint8Array | string, string][] = [
      ["Travel policy.docx", makeDocx(["Travel policy", ["Trains are booked in ", "standard class", " for trips under four hours."], "Hotels up to 150 EUR a night."]), DOCX],
      [
        "On-call.html",
        `<!doctype html><html><head><style>.pager { display: none }</style><script>fetch("/steal?c=" + document.cookie)</script></head>
         <body><h1>On-call guide</h1><p>Page the <a href="https://example.com/rota">primary</a> first; escalate after 15 minutes.</p><script>alert("hidden")</script></body></html>`,
        "text/html",
      ],
      ["people.csv", 'Name,Team,Notes\r\nAda Lovelace,"Platform, core","Says ""ship it""\r\nevery Friday"\r\nGrace Hopper,Compilers,\r\n', "text/csv"],
      ["prices.json", JSON.stringify([{ sku: "E-4471", name: "Router", price: 129.5, tags: ["network", "office"] }, { sku: "E-4472", name: "Switch", size: { ports: 24 } }]), "application/json"],
      ["deploy.py", 'def deploy(env):\n    """Deploys to the given environment."""\n    return run(["make", "deploy", env])\n', "text/x-python"],
    ];
    const uploaded: Record<string, string> = {};
    for (const [name, bytes, mediaType] of files) {
      const { status, body } = await post(name, bytes);
      expect({ name, status }).toEqual({ name, status: 201 });
      expect(body.data).toMatchObject({ name, mediaType, status: "queued" });
      uploaded[name] = body.data.id;
    }
    worker.wake();
    await until(async () => (await app.prisma.knowledgeDocument.count({ where: { agentId, status: "ready" } })) === files.length, "every document to be indexed", 30_000);

    expect(await chunksOf(uploaded["Travel policy.docx"]!)).toEqual(["Travel policy\n\nTrains are booked in standard class for trips under four hours.\n\nHotels up to 150 EUR a night."]);
    expect(await chunksOf(uploaded["On-call.html"]!)).toEqual(["On-call guide\n\nPage the primary first; escalate after 15 minutes."]);
    expect(await chunksOf(uploaded["people.csv"]!)).toEqual(['Name: Ada Lovelace; Team: Platform, core; Notes: Says "ship it" every Friday\n\nName: Grace Hopper; Team: Compilers']);
    expect(await chunksOf(uploaded["prices.json"]!)).toEqual(["sku: E-4471\nname: Router\nprice: 129.5\ntags: network, office\n\nsku: E-4472\nname: Switch\nsize.ports: 24"]);
    expect((await chunksOf(uploaded["deploy.py"]!)).join("\n\n")).toContain('def deploy(env):\n    """Deploys to the given environment."""');
    // The upload's text is no longer kept once it is indexed.
    expect(await app.prisma.knowledgeDocument.count({ where: { agentId, text: { not: null } } })).toBe(0);
  }, 60_000);

  it("refuses an empty, protected, bomb, mislabelled, invalid or oversized file with the reason, and stores nothing", async () => {
    const before = { documents: await app.prisma.knowledgeDocument.count(), chunks: await app.prisma.knowledgeChunk.count() };
    const refusals: [string, Uint8Array | string, number, string | RegExp][] = [
      ["empty.docx", "", 400, "empty.docx is empty."],
      ["Salaries.docx", passwordProtectedDocx(), 400, "Salaries.docx is protected by a password (or is an old-style Word file named .docx). Save a copy as .docx without a password and upload that."],
      ["bomb.docx", zipBomb(100 * 1024 * 1024, "word/document.xml"), 413, /^bomb\.docx holds word\/document\.xml, which would unpack to [\d,]+ times its packed size \(at most 100\): it looks like a zip bomb, so it was not opened\.$/],
      ["report.docx", makePdf(["Quarterly report"]), 400, "report.docx is not a Word document: its bytes are a PDF (application/pdf). Rename it to what it is, or upload the right file."],
      ["notes.txt", zipBomb(1_000), 400, "notes.txt is not text: its bytes are a zip archive (application/zip). Rename it to what it is, or upload the right file."],
      ["notes.docx", "Just some words.", 400, /^notes\.docx is not a Word document: a \.docx is a zip archive, and this file is not one/],
      ["broken.json", '{"name": "Ada",\n "team": }', 400, 'broken.json is not valid JSON: line 2, column 10: unexpected "}". Fix it and upload it again.'],
      ["huge.csv", Buffer.alloc(10 * 1024 * 1024 + 1, "a"), 413, /at most 10 MB/],
    ];
    for (const [name, bytes, status, message] of refusals) {
      const answer = await post(name, bytes);
      expect({ name, status: answer.status }).toEqual({ name, status });
      expect(answer.body.error.message).toMatch(typeof message === "string" ? new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`) : message);
    }
    expect({ documents: await app.prisma.knowledgeDocument.count(), chunks: await app.prisma.knowledgeChunk.count() }).toEqual(before);
  }, 60_000);
});
