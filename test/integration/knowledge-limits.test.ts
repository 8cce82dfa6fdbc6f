import { readdirSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as uploadRoute } from "@/app/api/agents/[agentId]/knowledge/route";
import { readEnv } from "@/lib/config/env";
import { extractionLimits } from "@/lib/knowledge/extract-text";
import type { ReadLimits } from "@/lib/knowledge/read-in-worker";
import { uploadDocument } from "@/lib/knowledge/upload-document";
import { createProjectWithChannel } from "../support/fixtures";
import { makePdf, makePdfPages, repeatedTextOperators, textOperators } from "../support/make-pdf";
import { TestApp, type TestUser } from "../support/test-app";

const MB = 1024 * 1024;
// The process's threads: a PDF's worker thread is one of them while it reads.
const threads = () => readdirSync("/proc/self/task").length;

/** Hostile PDFs are read off the event loop, within caps and limits, and refused with the reason. */
describe("knowledge uploads: caps and limits", () => {
  let app: TestApp;
  let admin: TestUser;
  let agentId: string;
  const actor = () => ({ id: admin.id, name: admin.name, email: admin.email, role: "admin" as const });
  // A lower cap than the default, so a PDF built in the test passes it quickly; the wording is the same.
  const env = { KNOWLEDGE_MAX_CHARS: "2000000" };
  const configured = extractionLimits(readEnv({ NODE_ENV: "test", ...env }));
  const upload = (name: string, bytes: Uint8Array, limits?: ReadLimits) => uploadDocument(app.prisma, { actor: actor(), agentId, name, bytes, limits });
  const documentNames = async () => (await app.prisma.knowledgeDocument.findMany({ where: { agentId }, select: { name: true } })).map((row) => row.name);

  beforeAll(async () => {
    app = await TestApp.start({ env });
    const { project } = await createProjectWithChannel(app.prisma);
    admin = await app.signUp("Adam");
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    agentId = (await app.prisma.agent.create({ data: { projectId: project.id, handle: "reader", displayName: "Reader", color: "#0ea5e9", systemPrompt: "x", model: "offline" } })).id;
  });
  afterAll(() => app.close());

  it("keeps the event loop answering (p99 lag < 100 ms) while a FlateDecode bomb, a 9 MB page and 3,000 pages are uploaded, refuses each with the reason, and still reads an ordinary PDF", async () => {
    // Built before the clock starts: deflating 100 MB is the test's work, not the node's.
    const bomb = makePdfPages([{ operators: repeatedTextOperators("Quarterly results were strong in every region.", 100 * MB), deflate: true }]);
    const bigPage = makePdfPages([{ operators: repeatedTextOperators("Minutes of the board meeting, item by item.", 9 * MB) }]);
    const manyPages = makePdfPages(Array.from({ length: 3_000 }, (_, index) => ({ operators: textOperators([`Page ${index + 1} of the staff handbook.`]) })));
    const ordinary = makePdf(["Annual leave entitlement is 25 days per year.", "Unused leave expires at the end of March."]);
    expect(bomb.length).toBeLessThan(400 * 1024);
    expect(bigPage.length).toBeGreaterThan(8.5 * MB);

    // Encoded before the clock starts, as a browser would on its own machine: the node's part is
    // parsing the body, then reading the file.
    const encode = async (name: string, bytes: Uint8Array<ArrayBuffer>) => {
      const form = new FormData();
      form.set("file", new File([bytes], name, { type: "application/pdf" }));
      const draft = new Request(app.url, { method: "POST", body: form });
      return { body: await draft.arrayBuffer(), type: draft.headers.get("content-type")! };
    };
    const post = ({ body, type }: { body: ArrayBuffer; type: string }) => {
      const headers = { cookie: admin.cookie, origin: app.url, host: new URL(app.url).host, "content-type": type };
      const request = new Request(`${app.url}/api/agents/${agentId}/knowledge`, { method: "POST", headers, body });
      return uploadRoute(request, { params: Promise.resolve({ agentId }) }).then(async (response) => ({ status: response.status, body: await response.json() }));
    };
    const bodies = await Promise.all([encode("bomb.pdf", bomb), encode("board minutes.pdf", bigPage), encode("handbook.pdf", manyPages), encode("Leave policy.pdf", ordinary)]);
    // The histogram records a stall only when its timer next fires: it gets a tick before the
    // uploads and one after them, or a block at either end would go unseen.
    const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    await settle();
    const started = performance.now();
    const [bombed, big, many, read] = await Promise.all([post(bodies[0]), post(bodies[1]), post(bodies[2]), post(bodies[3])]);
    const elapsed = performance.now() - started;
    await settle();
    lag.disable();

    expect(bombed).toEqual({ status: 413, body: { error: { code: "payload_too_large", message: "bomb.pdf has more than 2,000,000 characters of text; split it and upload the parts." } } });
    expect(big.body.error.message).toBe("board minutes.pdf has more than 2,000,000 characters of text; split it and upload the parts.");
    expect(many.body.error.message).toBe("handbook.pdf has more than 2,000 pages (3,000); split it and upload the parts.");
    expect(read.status).toBe(201);
    expect(await documentNames()).toEqual(["Leave policy.pdf"]);
    const stored = await app.prisma.knowledgeDocument.findFirstOrThrow({ where: { agentId } });
    expect(stored.text).toBe("Annual leave entitlement is 25 days per year.\nUnused leave expires at the end of March.");
    expect(lag.percentile(99) / 1e6, `event-loop lag p99 (max ${(lag.max / 1e6).toFixed(0)} ms over ${elapsed.toFixed(0)} ms)`).toBeLessThan(100);
  }, 60_000);

  it("refuses a PDF that takes longer to read than its time limit, and its worker is gone", async () => {
    // 100 MB of drawing operators that show no text: about 4 s of pdf.js, against a 1 s limit.
    const slow = makePdfPages([{ operators: Buffer.alloc(100 * MB, "1 0 0 1 0 0 cm\n"), deflate: true }]);
    const before = threads();
    await expect(upload("slow.pdf", slow, { ...configured, timeoutMs: 1_000 })).rejects.toThrow(
      "slow.pdf took too long to read (over 1 second). It may be damaged: save it again as PDF, or upload its text as a .txt file.",
    );
    expect(threads()).toBeLessThanOrEqual(before);
    expect(await documentNames()).not.toContain("slow.pdf");
  }, 30_000);

  it("refuses a PDF that needs more memory than its limit, on the heap or in inflated buffers, and its worker is gone", async () => {
    // A content array of 25 million strings grows pdf.js's heap; 300 MB of inflated whitespace
    // grows buffers the heap limit does not count.
    const heapBomb = makePdfPages([{ operators: Buffer.concat([Buffer.from("BT /F1 12 Tf 72 720 Td ["), Buffer.alloc(100 * MB, "(ab)"), Buffer.from("] TJ ET")]), deflate: true }]);
    const bufferBomb = makePdfPages([{ operators: Buffer.alloc(300 * MB, " "), deflate: true }]);
    const before = threads();
    for (const [name, bytes] of [["heap.pdf", heapBomb], ["inflated.pdf", bufferBomb]] as const) {
      await expect(upload(name, bytes, { ...configured, memoryMb: 128 })).rejects.toThrow(
        `${name} is too large to read (it needs more than 128 MB of memory). Split it, or upload its text as a .txt file.`,
      );
      expect(threads()).toBeLessThanOrEqual(before);
    }
    expect(await documentNames()).toEqual(["Leave policy.pdf"]);
  }, 30_000);

  it("takes a 1,000-page manual (5 MB of text) under the default cap, and refuses one past it with the reason", async () => {
    const defaults = extractionLimits(readEnv({ NODE_ENV: "test" }));
    const page = (n: number) => `Page ${n}. ${"The release checklist asks for the notes, the owners and the rollback plan. ".repeat(68)}`;
    const manual = new TextEncoder().encode(Array.from({ length: 1_000 }, (_, n) => page(n)).join("\n\n"));
    expect(manual.length).toBeGreaterThan(5_000_000);
    expect(await upload("manual.txt", manual, defaults)).toMatchObject({ name: "manual.txt", status: "queued" });
    await expect(upload("manual 2.txt", new Uint8Array(6_000_001).fill(0x61), defaults)).rejects.toThrow("manual 2.txt has more than 6,000,000 characters of text; split it and upload the parts.");
    await app.prisma.knowledgeDocument.deleteMany({ where: { name: "manual.txt" } });
  });

  it("refuses file names with line breaks, tabs or bidi controls, naming the character, and stores nothing", async () => {
    const text = new TextEncoder().encode("Releases are on Fridays.");
    for (const [name, shown] of [
      ["Q3\rreport.md", "U+000D carriage return at character 3"],
      ["Q3\nreport.md", "U+000A line feed at character 3"],
      ["Q3\treport.md", "U+0009 tab at character 3"],
      ["invoice\u202Efdp.md", "U+202E right-to-left override at character 8"],
      ["notes\u2066.md", "U+2066 left-to-right isolate at character 6"],
    ] as const) {
      await expect(upload(name, text)).rejects.toThrow(`File names can't contain control characters (${shown}). Remove it and try again.`);
    }
    expect(await documentNames()).toEqual(["Leave policy.pdf"]);
  });
});
