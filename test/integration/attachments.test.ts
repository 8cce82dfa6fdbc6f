import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as readRoute } from "@/app/api/attachments/[attachmentId]/route";
import { GET as thumbnailRoute } from "@/app/api/attachments/[attachmentId]/thumbnail/route";
import { POST as uploadRoute } from "@/app/api/conversations/[conversationId]/attachments/route";
import { POST as postRoute } from "@/app/api/conversations/[conversationId]/messages/route";
import { DELETE as deleteRoute } from "@/app/api/messages/[messageId]/route";
import { sweepDiscardedAttachments } from "@/lib/attachments/sweep-discarded-attachments";
import { createRequestGuard } from "@/lib/http/guard-request";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { LOCAL_S3_BUCKET, startLocalS3 } from "../support/local-s3";
import { makePdfPages, textOperators } from "../support/make-pdf";
import { zipBomb } from "../support/make-zip";
import { TestApp, type TestUser } from "../support/test-app";

/** The start of a Linux program: what `file-type` recognises whatever the name says. */
const elfProgram = () => Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4_096, 1)]);

/** A PDF whose trailer says it is encrypted (with a password nobody gave). */
function encryptedPdf(): Uint8Array {
  const pdf = Buffer.from(makePdfPages([{ operators: textOperators(["secret plans"]) }])).toString("latin1");
  const id = "<0123456789abcdef0123456789abcdef>";
  const encrypt = `/Encrypt << /Filter /Standard /V 1 /R 2 /O <${"ab".repeat(32)}> /U <${"cd".repeat(32)}> /P -4 >> /ID [${id} ${id}]`;
  return Buffer.from(pdf.replace(/trailer\s*<</, `trailer\n<< ${encrypt}`), "latin1");
}

const stores = [
  { name: "DATA_DIR", start: async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "chorus-attachments-"));
    const root = path.join(dataDir, "attachments");
    const stored = async () => (await readdir(root, { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile()).map((entry) => entry.name);
    return { env: { DATA_DIR: dataDir }, stored, stop: () => rm(dataDir, { recursive: true, force: true }) };
  } },
  { name: "a local S3 server", start: async () => {
    const s3 = await startLocalS3();
    const client = new S3Client({ endpoint: s3.env.S3_ENDPOINT, region: "us-east-1", forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
    const stored = async () => ((await client.send(new ListObjectsV2Command({ Bucket: LOCAL_S3_BUCKET }))).Contents ?? []).map((object) => object.Key!);
    return { env: s3.env, stored, stop: s3.stop };
  } },
];

describe.each(stores)("attachments stored in $name", ({ start }) => {
  let app: TestApp;
  let store: Awaited<ReturnType<(typeof stores)[number]["start"]>>;
  let ann: TestUser;
  let bob: TestUser;
  let outsider: TestUser;
  let channelId: string;

  const upload = async (user: TestUser, name: string, bytes: Uint8Array, conversationId = channelId) => {
    const form = new FormData();
    form.set("file", new File([Buffer.from(bytes)], name, { type: "image/png" }));
    const response = await uploadRoute(new Request(`${app.url}/api/conversations/${conversationId}/attachments`, { method: "POST", body: form, headers: { cookie: user.cookie } }), {
      params: Promise.resolve({ conversationId }),
    });
    return { status: response.status, body: (await response.json()) as { data?: { id: string; name: string; mediaType: string; bytes: number; kind: string; thumbnailUrl: string | null }; error?: { message: string } } };
  };
  const post = async (user: TestUser, body: Record<string, unknown>) => {
    const response = await postRoute(new Request(`${app.url}/api/conversations/${channelId}/messages`, { method: "POST", body: JSON.stringify(body), headers: { cookie: user.cookie, "content-type": "application/json" } }), {
      params: Promise.resolve({ conversationId: channelId }),
    });
    return { status: response.status, ...((await response.json()) as object) };
  };
  const read = (user: TestUser, attachmentId: string, route = readRoute) =>
    route(new Request(`${app.url}/api/attachments/${attachmentId}`, { headers: { cookie: user.cookie } }), { params: Promise.resolve({ attachmentId }) });

  beforeAll(async () => {
    store = await start();
    app = await TestApp.start({ env: { ...store.env, ATTACHMENT_MAX_MB: "1", ATTACHMENT_QUOTA_MB: "3", ATTACHMENTS_PER_MESSAGE: "2" } });
    const { project } = await createProjectWithChannel(app.prisma);
    [ann, bob, outsider] = [await app.signUp("Ann"), await app.signUp("Bob"), await app.signUp("Outsider")];
    channelId = (await createChannel(app.prisma, { projectId: project.id, name: `files-${randomUUID().slice(0, 8)}`, userIds: [ann.id, bob.id] })).id;
  });
  afterAll(async () => {
    await app.close();
    await store.stop();
  });

  it("keeps a photo upright without its location, with a thumbnail, for its uploader until it is sent", async () => {
    const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3366aa" } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "Ann" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1" } })
      .toBuffer();
    expect((await sharp(photo).metadata()).exif).toBeDefined();

    const { status, body } = await upload(ann, "holiday.png", photo);
    expect(status).toBe(201);
    // The name said PNG and the browser said PNG; the bytes say JPEG.
    expect(body.data).toMatchObject({ name: "holiday.png", mediaType: "image/jpeg", kind: "image", thumbnailUrl: `/api/attachments/${body.data!.id}/thumbnail` });

    const served = await read(ann, body.data!.id);
    expect(served.status).toBe(200);
    expect(Object.fromEntries(served.headers)).toMatchObject({ "content-type": "image/jpeg", "x-content-type-options": "nosniff", "content-disposition": `inline; filename="holiday.png"; filename*=UTF-8''holiday.png` });
    const kept = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(kept).toMatchObject({ width: 1200, height: 800 });
    expect(kept.exif).toBeUndefined();

    const thumbnail = await read(ann, body.data!.id, thumbnailRoute);
    expect(thumbnail.headers.get("content-type")).toBe("image/webp");
    expect(await sharp(Buffer.from(await thumbnail.arrayBuffer())).metadata()).toMatchObject({ format: "webp", width: 480, height: 320 });

    // Not sent yet: only Ann sees it; someone outside the conversation never does.
    expect((await read(bob, body.data!.id)).status).toBe(404);
    expect((await read(outsider, body.data!.id)).status).toBe(404);
    expect((await read(outsider, body.data!.id, thumbnailRoute)).status).toBe(404);
  });

  it("reads text and PDFs for agents, and never serves SVG or HTML inline", async () => {
    const notes = await upload(ann, "notes.md", Buffer.from("# Plan\r\n\r\nShip on Friday.\r\n"));
    expect(notes.body.data).toMatchObject({ mediaType: "text/markdown", kind: "text" });
    expect(await app.prisma.attachment.findUnique({ where: { id: notes.body.data!.id }, select: { text: true } })).toEqual({ text: "# Plan\n\nShip on Friday.\n" });
    expect((await read(ann, notes.body.data!.id)).headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    // A long log is kept for agents up to its first 400,000 characters; the file itself is whole.
    const log = await upload(ann, "long.log", Buffer.from("x".repeat(500_000)));
    expect((await app.prisma.attachment.findUnique({ where: { id: log.body.data!.id }, select: { text: true } }))?.text).toHaveLength(400_000);
    expect(log.body.data).toMatchObject({ bytes: 500_000 });

    const pdf = await upload(ann, "report.pdf", makePdfPages([{ operators: textOperators(["Quarterly numbers are up"]) }]));
    expect(pdf.body.data).toMatchObject({ mediaType: "application/pdf", kind: "pdf", thumbnailUrl: null });
    expect((await app.prisma.attachment.findUnique({ where: { id: pdf.body.data!.id }, select: { text: true } }))?.text).toContain("Quarterly numbers are up");

    for (const [name, content] of [
      ["logo.svg", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ["page.html", "<!doctype html><html><script>alert(1)</script></html>"],
    ] as const) {
      const { body } = await upload(ann, name, Buffer.from(content));
      const served = await read(ann, body.data!.id);
      expect(served.headers.get("content-type")).toBe("application/octet-stream");
      expect(served.headers.get("content-disposition")).toMatch(/^attachment; /);
      expect(served.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  it("refuses bad files with the reason, storing nothing", async () => {
    const before = (await store.stored()).length;
    const rows = await app.prisma.attachment.count();
    const refusals: [string, Uint8Array, number, RegExp][] = [
      ["cat.png", elfProgram(), 400, /^cat\.png is a program \(application\/x-elf\)/],
      ["notes.txt", zipBomb(50 * 1024 * 1024), 400, /^notes\.txt is not text: its bytes are application\/zip/],
      ["photo.png", Buffer.from("just some words"), 400, /^photo\.png is not an image/],
      ["empty.txt", new Uint8Array(), 400, /^empty\.txt is empty/],
      ["big.log", Buffer.alloc(1024 * 1024 + 1, "a"), 413, /^big\.log is too large: files can be at most 1 MB\.$/],
      ["../../etc/passwd", Buffer.from("x"), 400, /cannot contain \/ or \\/],
      ["dir\\file.txt", Buffer.from("x"), 400, /cannot contain \/ or \\/],
      ["bell\u0007.txt", Buffer.from("x"), 400, /^File names/],
      [`${"n".repeat(996)}.txt`, Buffer.from("x"), 400, /^File names can be at most 255 characters\.$/],
      ["locked.pdf", encryptedPdf(), 400, /^locked\.pdf is protected by a password/],
      ["broken.pdf", Buffer.from("%PDF-1.7\nthis is not really a pdf"), 400, /^broken\.pdf could not be read as a PDF/],
    ];
    // Uploads are written to the temporary directory as they stream in: none may stay there.
    const spool = await mkdtemp(path.join(tmpdir(), "chorus-spool-"));
    const temporary = process.env.TMPDIR;
    process.env.TMPDIR = spool;
    try {
      for (const [name, bytes, status, message] of refusals) {
        const { status: got, body } = await upload(ann, name, bytes);
        expect({ name, got, message: body.error?.message }).toEqual({ name, got: status, message: expect.stringMatching(message) });
      }
    } finally {
      if (temporary === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = temporary;
    }
    expect(await readdir(spool)).toEqual([]);
    await rm(spool, { recursive: true });
    // Someone outside the conversation cannot attach in it, nor anyone in a conversation that does not exist.
    expect((await upload(outsider, "a.txt", Buffer.from("hello"))).status).toBe(404);
    expect((await upload(ann, "a.txt", Buffer.from("hello"), randomUUID())).status).toBe(404);
    expect(await store.stored()).toHaveLength(before);
    expect(await app.prisma.attachment.count()).toBe(rows);
  });

  it("reads an upload as it streams in: a slow one holds up no one, and one that never ends is cut off at the limit", async () => {
    const streamed = (body: ReadableStream<Uint8Array>, type: string) =>
      uploadRoute(new Request(`${app.url}/api/conversations/${channelId}/attachments`, { method: "POST", body, duplex: "half", headers: { cookie: ann.cookie, "content-type": type } } as RequestInit), {
        params: Promise.resolve({ conversationId: channelId }),
      });
    const form = new FormData();
    form.set("file", new File([Buffer.alloc(256 * 1024, "s")], "slow.txt", { type: "text/plain" }));
    const draft = new Request(app.url, { method: "POST", body: form });
    const encoded = new Uint8Array(await draft.arrayBuffer());
    const type = draft.headers.get("content-type")!;

    let sendTheRest!: () => void;
    const waiting = new Promise<void>((resolve) => (sendTheRest = resolve));
    const slow = streamed(
      new ReadableStream({
        async start(controller) {
          controller.enqueue(encoded.subarray(0, 1_024));
          await waiting;
          controller.enqueue(encoded.subarray(1_024));
          controller.close();
        },
      }),
      type,
    );
    // The upload waits for the rest of its bytes; a post meanwhile does not wait for it.
    expect(await post(ann, { content: "while a file is on its way" })).toMatchObject({ status: 201 });
    sendTheRest();
    expect((await slow).status).toBe(201);

    // The start of a file, then bytes without end: refused once past the 1 MB limit, the rest never read.
    const boundary = /boundary=(.+)$/.exec(type)![1]!;
    let sent = 0;
    const endless = await streamed(
      new ReadableStream({
        start: (controller) => controller.enqueue(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="endless.log"\r\nContent-Type: text/plain\r\n\r\n`)),
        pull(controller) {
          sent += 64 * 1024;
          controller.enqueue(Buffer.alloc(64 * 1024, "e"));
        },
      }),
      type,
    );
    expect({ status: endless.status, body: await endless.json() }).toEqual({ status: 413, body: { error: { code: "payload_too_large", message: "endless.log is too large: files can be at most 1 MB." } } });
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });

  it("sweeps uploads never sent, with their files, once they are old enough", async () => {
    const abandoned = (await upload(ann, "old.png", await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).png().toBuffer())).body.data!;
    const recent = (await upload(ann, "recent.txt", Buffer.from("still deciding"))).body.data!;
    await app.prisma.attachment.update({ where: { id: abandoned.id }, data: { createdAt: new Date(Date.now() - 25 * 3_600_000) } });
    const storedBefore = await store.stored();

    expect(await sweepDiscardedAttachments(app.prisma, app.runtime.attachments.store, { unsentHours: 24 })).toBe(1);
    expect(await app.prisma.attachment.findUnique({ where: { id: abandoned.id } })).toBeNull();
    expect((await read(ann, abandoned.id)).status).toBe(404);
    // The file and its thumbnail are gone from the store; the recent upload stays.
    expect(await store.stored()).toHaveLength(storedBefore.length - 2);
    expect((await read(ann, recent.id)).status).toBe(200);
  });

  it("sends files with a message, in order, to everyone in the conversation; refuses files that are not the sender's to send", async () => {
    const chart = (await upload(ann, "chart.png", await sharp({ create: { width: 64, height: 32, channels: 3, background: "#0a0" } }).png().toBuffer())).body.data!;
    const notes = (await upload(ann, "notes.txt", Buffer.from("numbers attached"))).body.data!;
    const messagesBefore = await app.prisma.message.count({ where: { conversationId: channelId } });

    const refusals: [TestUser, Record<string, unknown>, RegExp][] = [
      [ann, { content: "", attachmentIds: [] }, /^A message can't be empty/],
      [ann, { content: "three", attachmentIds: [chart.id, notes.id, randomUUID()] }, /^At most 2 files can be sent with one message; this one has 3\.$/],
      [bob, { content: "mine now", attachmentIds: [chart.id] }, /^One of the files is not one you uploaded here/],
      [ann, { content: "twice", attachmentIds: [chart.id, chart.id] }, /^The same file is attached twice\.$/],
    ];
    for (const [user, body, message] of refusals) expect(await post(user, body)).toMatchObject({ status: 400, error: { message: expect.stringMatching(message) } });
    expect(await app.prisma.message.count({ where: { conversationId: channelId } })).toBe(messagesBefore);

    const clientId = randomUUID();
    const sent = await post(ann, { clientId, content: "", attachmentIds: [notes.id, chart.id] });
    expect(sent).toMatchObject({ status: 201, data: { created: true, message: { content: "", attachments: [{ id: notes.id, kind: "text" }, { id: chart.id, kind: "image", width: 64, height: 32, thumbnailUrl: chart.thumbnailUrl }] } } });
    // Sent: Bob sees the files; someone outside still does not.
    expect((await read(bob, chart.id)).status).toBe(200);
    expect((await read(bob, chart.id, thumbnailRoute)).status).toBe(200);
    expect((await read(outsider, chart.id)).status).toBe(404);
    // A retry is the same message; sending the files again with another message is refused.
    expect(await post(ann, { clientId, content: "", attachmentIds: [notes.id, chart.id] })).toMatchObject({ status: 200, data: { created: false, message: { attachments: [{ id: notes.id }, { id: chart.id }] } } });
    expect(await post(ann, { content: "again", attachmentIds: [chart.id] })).toMatchObject({ status: 409, error: { message: "chart.png was already sent with another message: attach it again to send it twice." } });
    // A file uploaded elsewhere stays there.
    const elsewhere = (await createChannel(app.prisma, { projectId: (await app.prisma.conversation.findUniqueOrThrow({ where: { id: channelId } })).projectId, name: `other-${randomUUID().slice(0, 8)}`, userIds: [ann.id] })).id;
    const stray = (await upload(ann, "stray.txt", Buffer.from("elsewhere"), elsewhere)).body.data!;
    expect(await post(ann, { content: "wrong room", attachmentIds: [stray.id] })).toMatchObject({ status: 400, error: { message: "stray.txt was uploaded in another conversation: attach it here again." } });
  });

  it("deletes a message's files with it: gone from the store, served to no one, absent from the tombstone", async () => {
    const photo = (await upload(ann, "gone.png", await sharp({ create: { width: 16, height: 16, channels: 3, background: "#a00" } }).png().toBuffer())).body.data!;
    const sent = (await post(ann, { content: "before I change my mind", attachmentIds: [photo.id] })) as unknown as { data: { message: { id: string } } };
    const messageId = sent.data.message.id;
    const storedBefore = await store.stored();

    const deleted = await deleteRoute(new Request(`${app.url}/api/messages/${messageId}`, { method: "DELETE", headers: { cookie: ann.cookie } }), { params: Promise.resolve({ messageId }) });
    expect(await deleted.json()).toMatchObject({ data: { message: { id: messageId, deleted: { byAdmin: false }, attachments: [] } } });
    for (const user of [ann, bob]) expect((await read(user, photo.id)).status).toBe(404);
    expect(await app.prisma.attachment.count({ where: { messageId } })).toBe(0);
    expect(await store.stored()).toHaveLength(storedBefore.length - 2);
  });

  it("holds each person to their quota", async () => {
    const megabyte = Buffer.alloc(1024 * 1024 - 100, "b");
    // Joins the project's channels on signing up, this one included.
    const carol = await app.signUp("Carol");
    for (let index = 0; index < 3; index += 1) expect((await upload(carol, `part-${index}.txt`, megabyte)).status).toBe(201);
    const refused = await upload(carol, "part-4.txt", megabyte);
    expect(refused).toMatchObject({ status: 413, body: { error: { message: expect.stringMatching(/^Your files take 3 MB of your 3 MB; this one \(1,024 KB\) does not fit\./) } } });
    // Someone else's files do not count against Carol's.
    expect((await upload(bob, "mine.txt", megabyte)).status).toBe(201);
  });

  it("holds the quota when uploads arrive at once: only what fits is stored, the rest refused and left nowhere", async () => {
    const megabyte = Buffer.alloc(1024 * 1024 - 100, "d");
    const dave = await app.signUp("Dave");
    const storedBefore = (await store.stored()).length;

    // Four at once against a 3 MB quota: each would fit alone.
    const results = await Promise.all([0, 1, 2, 3].map((index) => upload(dave, `burst-${index}.txt`, megabyte)));
    expect(results.map((result) => result.status).sort()).toEqual([201, 201, 201, 413]);
    expect(results.find((result) => result.status === 413)?.body.error?.message).toMatch(/^Your files take 3 MB of your 3 MB; this one \(1,024 KB\) does not fit\./);
    const kept = await app.prisma.attachment.aggregate({ where: { uploaderUserId: dave.id }, _sum: { bytes: true }, _count: true });
    expect(kept).toMatchObject({ _count: 3, _sum: { bytes: 3 * megabyte.length } });
    // The refused upload's file was written before the quota said no: it is gone again.
    expect(await store.stored()).toHaveLength(storedBefore + 3);
  });
});

describe("the request guard in front of uploads", () => {
  it("refuses a body past the attachment limit before reading it, naming the limit; other routes keep 1 MB", async () => {
    const guard = createRequestGuard({ trustedProxies: 0, allowedOrigins: [], attachmentMaxBytes: 2 * 1024 * 1024 });
    const server = createServer(guard.wrap((req, res) => void req.resume().on("end", () => res.end("read"))));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const send = (route: string, bytes: number) => fetch(`${url}${route}`, { method: "POST", headers: { origin: url }, body: Buffer.alloc(bytes) });
    try {
      expect((await send("/api/conversations/c1/attachments", 1.5 * 1024 * 1024)).status).toBe(200);
      const refused = await send("/api/conversations/c1/attachments", 3 * 1024 * 1024);
      expect(refused.status).toBe(413);
      expect((await refused.json()).error.message).toBe("This file is too large: files can be at most 2 MB.");
      expect((await send("/api/conversations/c1/messages", 1.5 * 1024 * 1024)).status).toBe(413);
    } finally {
      server.close();
    }
  });

  it("counts a body sent without its length (chunked) as it arrives, leaving all of it to a handler that reads it later, and cuts it off past the limit", async () => {
    const guard = createRequestGuard({ trustedProxies: 0, allowedOrigins: [], attachmentMaxBytes: 2 * 1024 * 1024 });
    // As a route does: other work first (the session), then the body.
    const server = createServer(
      guard.wrap((req, res) => {
        setTimeout(() => {
          let length = 0;
          req.on("data", (chunk: Buffer) => (length += chunk.length)).on("end", () => res.end(String(length)));
        }, 50);
      }),
    );
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const chunked = (bytes: number) =>
      fetch(`${url}/api/conversations/c1/attachments`, {
        method: "POST",
        headers: { origin: url },
        body: new ReadableStream({
          start(controller) {
            for (let sent = 0; sent < bytes; sent += 64 * 1024) controller.enqueue(new Uint8Array(Math.min(64 * 1024, bytes - sent)));
            controller.close();
          },
        }),
        duplex: "half",
      } as RequestInit);
    try {
      expect(await (await chunked(1024 * 1024)).text()).toBe(String(1024 * 1024));
      await expect(chunked(3 * 1024 * 1024).then((response) => response.text())).rejects.toThrow();
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
