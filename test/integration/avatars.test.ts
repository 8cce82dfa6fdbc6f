import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as avatarRoute } from "@/app/api/avatars/[userId]/route";
import { DELETE as removeRoute, POST as uploadRoute } from "@/app/api/avatars/route";
import { deleteAccount } from "@/lib/account/delete-account";
import { avatarColorSchema } from "@/lib/avatars/avatar-rules";
import { setAvatarColor } from "@/lib/avatars/set-avatar-color";
import { listConversations } from "@/lib/conversations/list-conversations";
import { listMessages } from "@/lib/conversations/list-messages";
import { listParticipants } from "@/lib/conversations/list-participants";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { postMessage } from "@/lib/conversations/post-message";
import { bodyLimitFor } from "@/lib/http/guard-request";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

interface Answer {
  status: number;
  data?: { color: string | null; avatarUrl: string | null };
  error?: { code: string; message: string; fields?: Record<string, string> };
}

/** A person's picture (Settings → Avatar): stored as a square WebP, shown wherever they are. */
describe("avatars", () => {
  let app: TestApp;
  let dataDir: string;
  let projectId: string;
  let channelId: string;

  /** Every blob stored under DATA_DIR. */
  const stored = async () => (await readdir(path.join(dataDir, "attachments"), { recursive: true, withFileTypes: true }).catch(() => [])).filter((entry) => entry.isFile()).map((entry) => entry.name).sort();
  const answer = async (response: Response): Promise<Answer> => ({ status: response.status, ...((await response.json()) as object) });
  const upload = async (user: TestUser, name: string, bytes: Uint8Array) => {
    const form = new FormData();
    form.set("file", new File([Buffer.from(bytes)], name, { type: "image/png" }));
    return answer(await uploadRoute(new Request(`${app.url}/api/avatars`, { method: "POST", body: form, headers: { cookie: user.cookie } })));
  };
  const remove = async (user: TestUser) => answer(await removeRoute(new Request(`${app.url}/api/avatars`, { method: "DELETE", headers: { cookie: user.cookie } })));
  const fetchAvatar = (url: string, cookie?: string) => {
    const userId = decodeURIComponent(/^\/api\/avatars\/([^?]+)/.exec(url)![1]!);
    return avatarRoute(new Request(`${app.url}${url}`, { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({ userId }) });
  };
  const imageOf = (userId: string) => app.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { image: true, avatarColor: true } });
  const photo = (width: number, height: number, background = "#3366aa") =>
    sharp({ create: { width, height, channels: 3, background } })
      .jpeg()
      .withExif({ IFD0: { Copyright: "Ann" }, IFD3: { GPSLatitudeRef: "N", GPSLatitude: "48/1 51/1 24/1" } })
      .toBuffer();
  const person = async (name: string) => {
    const user = await app.signUp(name);
    // Sign-up joins the first project and its channels: this one, here.
    expect(await app.prisma.participant.count({ where: { conversationId: channelId, userId: user.id } })).toBe(1);
    return user;
  };

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), "chorus-avatars-"));
    app = await TestApp.start({ env: { DATA_DIR: dataDir } });
    const { project } = await createProjectWithChannel(app.prisma);
    projectId = project.id;
    channelId = (await createChannel(app.prisma, { projectId, name: `faces-${crypto.randomUUID().slice(0, 8)}` })).id;
  });
  afterAll(async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  it("keeps an upload as a 256-pixel square WebP without its metadata, served to signed-in people, and shows it beside its owner everywhere", async () => {
    const [ann, bob] = [await person("Ann"), await person("Bob")];
    const uploaded = await upload(ann, "holiday.png", await photo(1200, 800));

    expect(uploaded.status).toBe(200);
    const avatarUrl = uploaded.data!.avatarUrl!;
    expect(avatarUrl).toMatch(new RegExp(`^/api/avatars/${ann.id}\\?v=[0-9a-f-]{36}$`));
    expect(await stored()).toHaveLength(1);

    const served = await fetchAvatar(avatarUrl, bob.cookie);
    expect(served.status).toBe(200);
    expect(Object.fromEntries(served.headers)).toMatchObject({ "content-type": "image/webp", "x-content-type-options": "nosniff", "cache-control": "private, max-age=31536000, immutable" });
    const kept = await sharp(Buffer.from(await served.arrayBuffer())).metadata();
    expect(kept).toMatchObject({ format: "webp", width: 256, height: 256 });
    expect(kept.exif).toBeUndefined();
    // Signed-in people only; another version's URL gets today's picture, checked again each time.
    expect((await fetchAvatar(avatarUrl)).status).toBe(401);
    expect((await fetchAvatar(`/api/avatars/${ann.id}?v=old`, bob.cookie)).headers.get("cache-control")).toBe("private, no-cache");
    expect((await fetchAvatar(`/api/avatars/${bob.id}?v=none`, bob.cookie)).status).toBe(404);

    const annAsAuthor = { kind: "user", id: ann.id, name: "Ann", color: null, avatarUrl };
    const posted = await postMessage(app.prisma, { userId: ann.id, input: { conversationId: channelId, clientId: crypto.randomUUID(), content: "New face" } });
    expect(posted.message.author).toEqual(annAsAuthor);
    // The whole statement too (an @mention takes it), and the page a browser loads.
    const mentioning = await postMessage(app.prisma, { userId: ann.id, input: { conversationId: channelId, clientId: crypto.randomUUID(), content: "@nobody see?" } });
    expect(mentioning.message.author).toEqual(annAsAuthor);
    const page = await listMessages(app.prisma, { userId: bob.id, conversationId: channelId });
    expect(page.messages.find((message) => message.id === posted.message.id)?.author).toEqual(annAsAuthor);

    const directory = await getProjectDirectory(app.prisma, { userId: bob.id });
    expect(directory?.members.find((member) => member.id === ann.id)).toEqual({ id: ann.id, name: "Ann", handle: expect.any(String), color: null, avatarUrl });
    expect(directory?.members.find((member) => member.id === bob.id)).toMatchObject({ color: null, avatarUrl: null });
    expect((await listParticipants(app.prisma, { userId: bob.id, conversationId: channelId })).find((participant) => participant.id === ann.id)).toMatchObject({ avatarUrl });
    const dm = await openDirectMessage(app.prisma, { userId: bob.id, projectId, otherUserId: ann.id });
    const [summary] = await listConversations(app.prisma, { userId: bob.id, conversationId: dm.id });
    expect(summary?.peer).toEqual({ kind: "user", id: ann.id, name: "Ann", color: null, avatarUrl });
  });

  it("refuses a text file named .png, a program and a file over 5 MB, in words under the field, storing nothing and leaving the row as it was", async () => {
    const cy = await person("Cy");
    await upload(cy, "me.jpg", await photo(300, 300));
    const before = { row: await imageOf(cy.id), stored: await stored() };

    const text = await upload(cy, "notes.png", Buffer.from("Not a picture at all, only words.\n"));
    expect(text).toMatchObject({ status: 400, error: { fields: { avatar: "notes.png is not a picture. Choose a PNG, JPEG, WebP or GIF picture." } } });
    const program = await upload(cy, "setup.gif", Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]), Buffer.alloc(4_096, 1)]));
    expect(program.error?.fields?.avatar).toMatch(/^setup\.gif is not a picture/);
    const pdf = await upload(cy, "scan", Buffer.from("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n", "latin1"));
    expect(pdf.error?.fields?.avatar).toBe("scan is not a picture (its bytes are application/pdf). Choose a PNG, JPEG, WebP or GIF picture.");
    const empty = await upload(cy, "blank.png", new Uint8Array());
    expect(empty.error?.fields?.avatar).toMatch(/blank\.png is empty/);

    // One byte over: a real picture, its end padded.
    const huge = Buffer.concat([await photo(64, 64)]);
    const tooLarge = await upload(cy, "huge.jpg", Buffer.concat([huge, Buffer.alloc(5 * 1024 * 1024 + 1 - huge.length)]));
    expect(tooLarge).toMatchObject({ status: 413, error: { code: "payload_too_large", fields: { avatar: "huge.jpg is too large: files can be at most 5 MB." } } });
    // Exactly 5 MB passes the size check (and is then read as the JPEG it is).
    expect((await upload(cy, "limit.jpg", Buffer.concat([huge, Buffer.alloc(5 * 1024 * 1024 - huge.length)]))).status).toBe(200);
    // The HTTP entry lets such a body through, with room for its envelope, and no more.
    expect(bodyLimitFor("/api/avatars")).toBe(5 * 1024 * 1024 + 64 * 1024);

    const after = await imageOf(cy.id);
    expect(after.image).not.toBe(before.row.image);
    await upload(cy, "notes.png", Buffer.from("words"));
    expect(await imageOf(cy.id)).toEqual(after);
    // Only the accepted picture replaced the first; no refusal left a blob.
    expect((await stored()).length).toBe(before.stored.length);
  });

  it("deletes the replaced picture once the new one is in place, and goes back to initials on removal", async () => {
    const di = await person("Di");
    const first = await upload(di, "one.jpg", await photo(400, 300, "#aa3366"));
    const blobsWithFirst = await stored();
    const second = await upload(di, "two.jpg", await photo(300, 400, "#33aa66"));

    expect(second.data!.avatarUrl).not.toBe(first.data!.avatarUrl);
    const blobsWithSecond = await stored();
    expect(blobsWithSecond).toHaveLength(blobsWithFirst.length);
    expect(blobsWithSecond).not.toEqual(blobsWithFirst);
    // The old URL shows the new picture: nothing serves the old one.
    const [oldServed, newServed] = await Promise.all([fetchAvatar(first.data!.avatarUrl!, di.cookie), fetchAvatar(second.data!.avatarUrl!, di.cookie)]);
    expect(Buffer.from(await oldServed.arrayBuffer()).equals(Buffer.from(await newServed.arrayBuffer()))).toBe(true);

    expect(await remove(di)).toMatchObject({ status: 200, data: { color: null, avatarUrl: null } });
    expect(await imageOf(di.id)).toEqual({ image: null, avatarColor: null });
    expect(await stored()).toHaveLength(blobsWithFirst.length - 1);
    expect((await fetchAvatar(second.data!.avatarUrl!, di.cookie)).status).toBe(404);
    const posted = await postMessage(app.prisma, { userId: di.id, input: { conversationId: channelId, clientId: crypto.randomUUID(), content: "Initials again" } });
    expect(posted.message.author).toMatchObject({ avatarUrl: null });
  });

  it("saves a colour for the initials from the swatches only, carried with the person", async () => {
    const ed = await person("Ed");
    expect(avatarColorSchema.safeParse({ avatarColor: "#123456" }).error?.issues[0]).toMatchObject({ path: ["avatarColor"], message: "Choose one of the colours shown." });
    expect(await setAvatarColor(app.prisma, { userId: ed.id, input: avatarColorSchema.parse({ avatarColor: "#0f766e" }) })).toEqual({ color: "#0f766e", avatarUrl: null });

    const posted = await postMessage(app.prisma, { userId: ed.id, input: { conversationId: channelId, clientId: crypto.randomUUID(), content: "Teal" } });
    expect(posted.message.author).toMatchObject({ color: "#0f766e" });
    expect((await getProjectDirectory(app.prisma, { userId: ed.id }))?.members.find((member) => member.id === ed.id)).toMatchObject({ color: "#0f766e" });
    // The database holds the form too.
    await expect(app.prisma.user.update({ where: { id: ed.id }, data: { avatarColor: "red" } })).rejects.toThrow();
    expect(await setAvatarColor(app.prisma, { userId: ed.id, input: { avatarColor: null } })).toEqual({ color: null, avatarUrl: null });
  });

  it("never takes a picture through better-auth: not at sign-up, not through /update-user", async () => {
    const flo = await person("Flo");
    await upload(flo, "flo.jpg", await photo(100, 100));
    const before = await imageOf(flo.id);

    const refused = { statusCode: 400, body: { message: "Change your picture in Settings, under Avatar: it cannot be set here.", field: "image" } };
    await expect(app.runtime.auth.api.updateUser({ body: { image: "avatar-00000000-0000-0000-0000-000000000000" }, headers: new Headers({ cookie: flo.cookie }) })).rejects.toMatchObject(refused);
    await expect(app.runtime.auth.api.updateUser({ body: { image: null }, headers: new Headers({ cookie: flo.cookie }) })).rejects.toMatchObject(refused);
    expect(await imageOf(flo.id)).toEqual(before);
    // Still the place to change a name.
    expect((await app.runtime.auth.api.updateUser({ body: { name: "Flo R" }, headers: new Headers({ cookie: flo.cookie }), asResponse: true })).status).toBe(200);
    await expect(app.runtime.auth.api.updateUser({ body: { avatarColor: "#0f766e" } as never, headers: new Headers({ cookie: flo.cookie }) })).rejects.toThrow(/not allowed/);

    const email = `gil.${crypto.randomUUID()}@example.test`;
    await expect(app.runtime.auth.api.signUpEmail({ body: { name: "Gil", email, password: "correct-horse-1", image: "https://elsewhere.example/tracker.png" } })).rejects.toMatchObject(refused);
    expect(await app.prisma.user.count({ where: { email } })).toBe(0);
  });

  it("takes a deleted account's picture and colour with it", async () => {
    const hal = await person("Hal");
    await setAvatarColor(app.prisma, { userId: hal.id, input: { avatarColor: "#be185d" } });
    const { data } = await upload(hal, "hal.jpg", await photo(200, 200));
    const blobs = await stored();

    await deleteAccount({ auth: app.runtime.auth, prisma: app.prisma, store: app.runtime.attachments.store, endSession: () => undefined }, { userId: hal.id, password: "correct-horse-1", headers: new Headers({ cookie: hal.cookie }) });

    expect(await imageOf(hal.id)).toEqual({ image: null, avatarColor: null });
    expect(await stored()).toHaveLength(blobs.length - 1);
    const other = await app.signIn(await person("Ivy"));
    expect((await fetchAvatar(data!.avatarUrl!, other.cookie)).status).toBe(404);
    const page = await listMessages(app.prisma, { userId: other.id, conversationId: channelId });
    expect(page.messages.filter((message) => message.author.kind === "user" && message.author.id === hal.id).every((message) => message.author.kind === "user" && message.author.avatarUrl === null)).toBe(true);
  });
});
