import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as readRoute } from "@/app/api/attachments/[attachmentId]/route";
import { GET as textRoute } from "@/app/api/attachments/[attachmentId]/text/route";
import { POST as postRoute } from "@/app/api/conversations/[conversationId]/messages/route";
import { PREVIEW_MAX_CHARS } from "@/lib/attachments/read-attachment-text";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { makePdfPages, textOperators } from "../support/make-pdf";
import { TestApp, type TestUser } from "../support/test-app";

describe("GET /api/attachments/{id}/text", () => {
  let app: TestApp;
  let dataDir: string;
  let ann: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let channelId: string;

  /** Uploads the files and sends them with one message, as the composer does; their ids in order. */
  const send = async <Files extends [name: string, bytes: Uint8Array][]>(user: TestUser, files: [...Files]): Promise<{ [Index in keyof Files]: string }> => {
    const ids: string[] = [];
    for (const [name, bytes] of files) ids.push((await app.attach(user, channelId, name, bytes)).id);
    const body = JSON.stringify({ content: "files", attachmentIds: ids });
    const posted = await postRoute(new Request(`${app.url}/api/conversations/${channelId}/messages`, { method: "POST", body, headers: { cookie: user.cookie, "content-type": "application/json" } }), { params: Promise.resolve({ conversationId: channelId }) });
    expect(posted.status).toBe(201);
    return ids as { [Index in keyof Files]: string };
  };
  const text = async (user: TestUser, attachmentId: string, route = textRoute) => {
    const response = await route(new Request(`${app.url}/api/attachments/${attachmentId}/text`, { headers: { cookie: user.cookie } }), { params: Promise.resolve({ attachmentId }) });
    return { status: response.status, body: await response.json().catch(() => null) };
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "chorus-attachment-text-"));
    app = await TestApp.start({ env: { DATA_DIR: dataDir } });
    const { project } = await createProjectWithChannel(app.prisma);
    [ann, bob, outsider] = [await app.signUp("Ann"), await app.signUp("Bob"), await app.signUp("Outsider")];
    channelId = (await createChannel(app.prisma, { projectId: project.id, name: `previews-${randomUUID().slice(0, 8)}`, userIds: [ann.id, bob.id] })).id;
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("gives a participant the text of a text file and of a PDF, with its name and type", async () => {
    const [csv, pdf] = await send(ann, [
      ["people.csv", Buffer.from('name,note\r\n"Smith, Ann","says ""hi"""\r\n')],
      ["report.pdf", makePdfPages([{ operators: textOperators(["Quarterly numbers are up"]) }])],
    ]);
    expect(await text(bob, csv)).toEqual({
      status: 200,
      body: { data: { name: "people.csv", mediaType: "text/csv", kind: "text", text: 'name,note\n"Smith, Ann","says ""hi"""\n', truncated: false, totalChars: 37 } },
    });
    const read = await text(bob, pdf);
    expect(read).toMatchObject({ status: 200, body: { data: { name: "report.pdf", mediaType: "application/pdf", kind: "pdf", truncated: false } } });
    expect(read.body.data.text).toContain("Quarterly numbers are up");
  });

  it("answers 404 to anyone outside the conversation and for an unknown id, exactly as the file itself does", async () => {
    const [notes] = await send(ann, [["notes.md", Buffer.from("# Plan\n")]]);
    const refusal = { status: 404, body: { error: { code: "not_found", message: "That file does not exist, or you cannot see it." } } };
    const file = await readRoute(new Request(`${app.url}/api/attachments/${notes}`, { headers: { cookie: outsider.cookie } }), { params: Promise.resolve({ attachmentId: notes }) });
    expect({ status: file.status, body: await file.json() }).toEqual(refusal);
    expect(await text(outsider, notes)).toEqual(refusal);
    expect(await text(ann, randomUUID())).toEqual(refusal);
    expect(await text(ann, "not-an-id")).toEqual(refusal);
  });

  it("says why a file has no text: an image, a PDF without a text layer", async () => {
    const square = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#123456" } }).png().toBuffer();
    const [image, scan] = await send(ann, [
      ["square.png", square],
      ["scan.pdf", makePdfPages([{ operators: Buffer.from("0 0 200 200 re f") }])],
    ]);
    expect(await text(bob, image)).toEqual({ status: 404, body: { error: { code: "not_found", message: "square.png has no text to preview: only text files and PDFs have one. Download it to open it." } } });
    expect(await text(bob, scan)).toEqual({ status: 404, body: { error: { code: "not_found", message: "scan.pdf has no text to preview: it has no text layer (a scanned PDF?). Download it to read it." } } });
  });

  it("sends at most the preview's limit of a long text, never half a character, and says it is cut", async () => {
    // An emoji (two UTF-16 units) straddles the limit: the cut falls before it.
    const long = `${"a".repeat(PREVIEW_MAX_CHARS - 1)}😀${"b".repeat(50_000)}`;
    const [log] = await send(ann, [["long.log", Buffer.from(long)]]);
    const { status, body } = await text(bob, log);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ name: "long.log", kind: "text", truncated: true, totalChars: long.length });
    expect(body.data.text).toBe("a".repeat(PREVIEW_MAX_CHARS - 1));
  });
});
