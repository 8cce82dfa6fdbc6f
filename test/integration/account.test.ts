import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePassword, changePasswordSchema } from "@/lib/account/change-password";
import { deleteAccount } from "@/lib/account/delete-account";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { listMessages } from "@/lib/conversations/list-messages";
import { postMessage } from "@/lib/conversations/post-message";
import { profileSchema, updateProfile } from "@/lib/account/update-profile";
import { getUserSession } from "@/lib/auth/session-user";
import type { AppError } from "@/lib/errors/app-error";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const failure = async (promise: Promise<unknown>) => (await promise.then(() => null, (error: unknown) => error)) as AppError | null;
const signsIn = async (app: TestApp, email: string, password: string) => (await app.runtime.auth.api.signInEmail({ body: { email, password }, asResponse: true })).status === 200;

/** A person's own account: name, theme, time format and password. */
describe("account", () => {
  let app: TestApp;
  const headersOf = (user: TestUser) => new Headers({ cookie: user.cookie });
  const change = (user: TestUser, input: unknown) => changePassword(app.runtime.auth, { input: changePasswordSchema.parse(input), headers: headersOf(user) });

  beforeAll(async () => {
    app = await TestApp.start();
  });
  afterAll(() => app.close());

  it("saves a name, a theme and a time format, which the person's session then carries", async () => {
    const kim = await app.signUp("Kim");
    expect(await getUserSession(app.runtime.auth, headersOf(kim))).toMatchObject({ preferences: { theme: "system", timeFormat: "auto" } });

    const saved = await updateProfile(app.prisma, { userId: kim.id, input: profileSchema.parse({ name: "  Kim Lee ", theme: "dark", timeFormat: "12h" }) });

    expect(saved).toEqual({ name: "Kim Lee", theme: "dark", timeFormat: "12h" });
    // What the settings page starts from: the session's name and preferences.
    const session = await getUserSession(app.runtime.auth, headersOf(kim));
    expect({ name: session?.user.name, ...session?.preferences }).toEqual(saved);
  });

  it("refuses an empty name, an unknown theme or time format, saying which", () => {
    const refused = profileSchema.safeParse({ name: " ", theme: "sepia", timeFormat: "36h" });
    expect(refused.success).toBe(false);
    expect(Object.fromEntries(refused.error!.issues.map((issue) => [issue.path.join("."), issue.message]))).toEqual({
      name: "Tell us your name.",
      theme: "Choose system, light or dark.",
      timeFormat: "Choose automatic, 12-hour or 24-hour.",
    });
  });

  it("changes the password only with the right current one, and refuses a weak or unchanged new one", async () => {
    const ana = await app.signUp("Ana");
    expect(await failure(change(ana, { currentPassword: "wrong-horse-1", newPassword: "new-horse-22" }))).toMatchObject({ code: "bad_request", fields: { currentPassword: "Your current password is not right." } });
    expect(changePasswordSchema.safeParse({ currentPassword: "correct-horse-1", newPassword: "short" }).error?.issues[0]?.message).toBe("Use at least 8 characters.");
    expect(changePasswordSchema.safeParse({ currentPassword: "correct-horse-1", newPassword: "onlyletters" }).error?.issues[0]?.message).toMatch(/Too weak/);
    expect(await failure(change(ana, { currentPassword: "correct-horse-1", newPassword: "correct-horse-1" }))).toMatchObject({ fields: { newPassword: "Choose a password other than your current one." } });
    expect(await signsIn(app, ana.email, "correct-horse-1")).toBe(true);

    expect(await change(ana, { currentPassword: "correct-horse-1", newPassword: "new-horse-22" })).toEqual({ signedOutOthers: false });

    expect(await signsIn(app, ana.email, "correct-horse-1")).toBe(false);
    expect(await signsIn(app, ana.email, "new-horse-22")).toBe(true);
  });

  it("throttles guesses of the current password as sign-in does", async () => {
    const bo = await app.signUp("Bo");
    const refusals = [];
    for (let attempt = 0; attempt < 7; attempt++) refusals.push((await failure(change(bo, { currentPassword: `guess-${attempt}-x`, newPassword: "new-horse-22" })))?.code);
    // As at sign-in: five free attempts, the sixth goes ahead and makes the next one wait.
    expect(refusals.slice(0, 6)).toEqual(Array(6).fill("bad_request"));
    expect(refusals[6]).toBe("rate_limited");
    expect(await failure(change(bo, { currentPassword: "correct-horse-1", newPassword: "new-horse-22" }))).toMatchObject({ code: "rate_limited" });
  });

  it("signs out the person's other sessions when asked, ending their sockets, and keeps this one", async () => {
    const lu = await app.signUp("Lu");
    const phone = await app.signIn(lu);
    const [here, there] = [await app.connect(lu), await app.connect(phone)];
    const ended: unknown[] = [];
    there.on("session:ended", (payload) => ended.push(payload));

    expect(await change(lu, { currentPassword: "correct-horse-1", newPassword: "new-horse-22", signOutOthers: true })).toEqual({ signedOutOthers: true });

    await until(() => there.disconnected, "the other session's socket to end");
    expect(ended).toEqual([{ reason: "signed_out" }]);
    expect(await getUserSession(app.runtime.auth, headersOf(phone))).toBeNull();
    expect(here.connected).toBe(true);
    expect(await getUserSession(app.runtime.auth, headersOf(lu))).not.toBeNull();
  });
});

describe("deleting one's account", () => {
  let app: TestApp;
  const ended: string[] = [];
  const remove = (user: TestUser, password: string) =>
    deleteAccount({ auth: app.runtime.auth, prisma: app.prisma, store: app.runtime.attachments.store, endSession: (sessionId) => (ended.push(sessionId), app.runtime.realtime.sessionEnded(sessionId, "signed_out")) }, {
      userId: user.id,
      password,
      headers: new Headers({ cookie: user.cookie }),
    });

  beforeAll(async () => {
    app = await TestApp.start();
  });
  afterAll(() => app.close());

  it("keeps the person's messages under 'Deleted user', and ends their sessions, sign-in, tokens, memberships and memories", async () => {
    const { project, channel } = await createProjectWithChannel(app.prisma);
    const [mo, ivy] = [await app.signUp("Mo"), await app.signUp("Ivy")];
    for (const user of [mo, ivy]) {
      await app.prisma.membership.createMany({ data: [{ projectId: project.id, userId: user.id }], skipDuplicates: true });
      await app.prisma.participant.createMany({ data: [{ conversationId: channel.id, userId: user.id }], skipDuplicates: true });
    }
    const { message } = await postMessage(app.prisma, { userId: mo.id, input: { conversationId: channel.id, clientId: randomUUID(), content: "My last words here" } });
    await createApiToken(app.prisma, { userId: mo.id, name: "bot" });
    await app.prisma.pushSubscription.create({ data: { userId: mo.id, endpoint: "https://push.example.test/mo", p256dh: "key", auth: "secret" } });
    const phone = await app.signIn(mo);
    const sockets = [await app.connect(mo), await app.connect(phone)];

    expect(await failure(remove(mo, "not-my-password-1"))).toMatchObject({ code: "bad_request", fields: { password: "That is not your password." } });
    expect(await app.prisma.user.findUniqueOrThrow({ where: { id: mo.id } })).toMatchObject({ name: "Mo", deletedAt: null });

    await remove(mo, "correct-horse-1");

    const row = await app.prisma.user.findUniqueOrThrow({ where: { id: mo.id } });
    expect(row).toMatchObject({ name: "Deleted user", image: null });
    expect(row.deletedAt).not.toBeNull();
    expect(row.email).not.toContain("mo.");
    const page = await listMessages(app.prisma, { userId: ivy.id, conversationId: channel.id });
    expect(page.messages.find((each) => each.id === message.id)).toMatchObject({ content: "My last words here", author: { name: "Deleted user" } });
    await until(() => sockets.every((socket) => socket.disconnected), "every socket of the deleted account to end");
    expect(ended).toHaveLength(2);
    expect(await signsIn(app, mo.email, "correct-horse-1")).toBe(false);
    expect(await app.prisma.apiToken.count({ where: { userId: mo.id } })).toBe(0);
    expect(await app.prisma.membership.count({ where: { userId: mo.id } })).toBe(0);
    expect(await app.prisma.pushSubscription.count({ where: { userId: mo.id } })).toBe(0);
    expect(await getUserSession(app.runtime.auth, new Headers({ cookie: phone.cookie }))).toBeNull();
  });

  it("refuses the last admin, changing nothing", async () => {
    const admins = await app.prisma.user.findMany({ where: { role: "admin" } });
    await app.prisma.user.updateMany({ where: { id: { in: admins.map((admin) => admin.id) } }, data: { role: "member" } });
    const root = await app.signUp("Root");
    await app.prisma.user.update({ where: { id: root.id }, data: { role: "admin" } });

    expect(await failure(remove(root, "correct-horse-1"))).toMatchObject({ code: "conflict", message: expect.stringMatching(/only admin/) });
    expect(await app.prisma.user.findUniqueOrThrow({ where: { id: root.id } })).toMatchObject({ name: "Root", role: "admin", deletedAt: null });
    expect(await getUserSession(app.runtime.auth, new Headers({ cookie: root.cookie }))).not.toBeNull();

    // Two admins leaving at the same moment: one goes, the other is told it is the only admin now.
    const second = await app.signUp("Second");
    await app.prisma.user.update({ where: { id: second.id }, data: { role: "admin" } });
    const outcomes = await Promise.allSettled([remove(root, "correct-horse-1"), remove(second, "correct-horse-1")]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "conflict" } });
    expect(await app.prisma.user.count({ where: { role: "admin", deletedAt: null } })).toBe(1);
  });
});
