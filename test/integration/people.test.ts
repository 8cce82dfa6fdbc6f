import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { authenticateApiToken } from "@/lib/api-tokens/authenticate-api-token";
import { createAdmin } from "@/lib/auth/create-admin";
import { getUserSession } from "@/lib/auth/session-user";
import { listMessages } from "@/lib/conversations/list-messages";
import { postMessage } from "@/lib/conversations/post-message";
import type { AppError } from "@/lib/errors/app-error";
import { createInvite, listInvites, readInvite, revokeInvite } from "@/lib/people/invites";
import { changeRole, deactivatePerson, listPeople, reactivatePerson } from "@/lib/people/manage-people";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const failure = async (promise: Promise<unknown>) => (await promise.then(() => null, (error: unknown) => error)) as AppError | null;

/** A sign-up as the browser's form posts it to the auth API, with an invite's secret or none. */
async function signUpWith(app: TestApp, { name, invite }: { name: string; invite?: string }) {
  const email = `${name.toLowerCase()}.${randomUUID().slice(0, 8)}@example.test`;
  const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { origin: app.url, "content-type": "application/json" },
    body: JSON.stringify({ name, email, password: "correct-horse-1", ...(invite === undefined ? {} : { invite }) }),
  });
  const body = (await response.json()) as { user?: { id: string }; message?: string };
  return { status: response.status, message: body.message, userId: body.user?.id, email };
}

const signInStatus = async (app: TestApp, email: string) => {
  const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
    method: "POST",
    headers: { origin: app.url, "content-type": "application/json" },
    body: JSON.stringify({ email, password: "correct-horse-1" }),
  });
  return { status: response.status, message: ((await response.json()) as { message?: string }).message };
};

describe("invite links", () => {
  let app: TestApp;
  let admin: TestUser;

  beforeAll(async () => {
    app = await TestApp.start();
    admin = await app.signUp("Ada");
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
  });
  afterAll(() => app.close());

  it("gives its role to the one account made with it, and is refused when used again", async () => {
    const { token, invite } = await createInvite(app.prisma, { actorId: admin.id, role: "admin", expiresInDays: 7 });
    expect(invite).toMatchObject({ role: "admin", status: "pending", createdBy: "Ada" });
    expect(await readInvite(app.prisma, token)).toMatchObject({ role: "admin" });
    expect(await app.prisma.invite.count({ where: { tokenHash: token } })).toBe(0); // only its hash is kept

    const joined = await signUpWith(app, { name: "Bea", invite: token });
    expect(joined.status).toBe(200);
    expect(await app.prisma.user.findUniqueOrThrow({ where: { id: joined.userId! } })).toMatchObject({ role: "admin", name: "Bea" });
    expect((await listInvites(app.prisma)).find((each) => each.id === invite.id)).toMatchObject({ status: "used", usedBy: "Bea" });

    const again = await signUpWith(app, { name: "Cy", invite: token });
    expect(again).toMatchObject({ status: 400, message: "This invite link was already used. Ask an admin for a new one." });
    expect(await app.prisma.user.count({ where: { email: again.email } })).toBe(0);
    await expect(readInvite(app.prisma, token)).rejects.toMatchObject({ fields: { invite: expect.stringMatching(/already used/) } });
  });

  it("refuses an expired, a withdrawn or a mistyped link, creating no account", async () => {
    const expired = await createInvite(app.prisma, { actorId: admin.id, role: "member", expiresInDays: 1 });
    await app.prisma.invite.update({ where: { id: expired.invite.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const withdrawn = await createInvite(app.prisma, { actorId: admin.id, role: "debug", expiresInDays: 30 });
    expect(await revokeInvite(app.prisma, { inviteId: withdrawn.invite.id })).toMatchObject({ status: "revoked" });

    const attempts = await Promise.all([
      signUpWith(app, { name: "Dee", invite: expired.token }),
      signUpWith(app, { name: "Eve", invite: withdrawn.token }),
      signUpWith(app, { name: "Fay", invite: `${expired.token.slice(0, -2)}xx` }),
      signUpWith(app, { name: "Gus", invite: "<script>" }),
    ]);
    expect(attempts.map((attempt) => [attempt.status, attempt.message])).toEqual([
      [400, "This invite link has expired. Ask an admin for a new one."],
      [400, "This invite link was withdrawn by an admin. Ask an admin for a new one."],
      [400, "This invite link is not valid: check you copied all of it, or ask an admin for a new one."],
      [400, "This invite link is not valid: check you copied all of it, or ask an admin for a new one."],
    ]);
    expect(await app.prisma.user.count({ where: { email: { in: attempts.map((attempt) => attempt.email) } } })).toBe(0);
    // A used invite cannot be withdrawn afterwards: the account exists.
    const used = await createInvite(app.prisma, { actorId: admin.id, role: "member", expiresInDays: 1 });
    await signUpWith(app, { name: "Hal", invite: used.token });
    expect(await failure(revokeInvite(app.prisma, { inviteId: used.invite.id }))).toMatchObject({ code: "conflict" });
  });

  it("lets only one of two sign-ups with the same link at the same moment have it", async () => {
    const { token } = await createInvite(app.prisma, { actorId: admin.id, role: "admin", expiresInDays: 1 });
    const attempts = await Promise.all([signUpWith(app, { name: "Ian", invite: token }), signUpWith(app, { name: "Jo", invite: token })]);
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([200, 400]);
    expect(await app.prisma.user.count({ where: { email: { in: attempts.map((attempt) => attempt.email) } } })).toBe(1);
  });
});

describe("invite-only sign-up (SIGN_UP=invite)", () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await TestApp.start({ env: { SIGN_UP: "invite" } });
  });
  afterAll(() => app.close());

  it("refuses a sign-up without an invite, takes one with it, and still lets the server make its first admin", async () => {
    const { id: adminId } = await createAdmin({ prisma: app.prisma, auth: app.runtime.auth }, { email: "root@example.test", name: "Root", password: "correct-horse-1" });

    const uninvited = await signUpWith(app, { name: "Kai" });
    expect(uninvited).toMatchObject({ status: 403, message: "Chorus here is by invitation: ask an admin for an invite link." });
    expect(await app.prisma.user.count({ where: { email: uninvited.email } })).toBe(0);

    const { token } = await createInvite(app.prisma, { actorId: adminId, role: "member", expiresInDays: 1 });
    const invited = await signUpWith(app, { name: "Lea", invite: token });
    expect(invited.status).toBe(200);
    expect(await app.prisma.user.findUniqueOrThrow({ where: { id: invited.userId! } })).toMatchObject({ role: "member" });
  });
});

describe("people (admin)", () => {
  let app: TestApp;
  const ended: string[] = [];
  const deactivate = (userId: string, actorId: string) =>
    deactivatePerson({ prisma: app.prisma, endSession: (sessionId) => (ended.push(sessionId), app.runtime.realtime.sessionEnded(sessionId, "signed_out")) }, { userId, actorId });

  beforeAll(async () => {
    app = await TestApp.start();
  });
  afterAll(() => app.close());

  const makeAdmin = async (name: string) => {
    const user = await app.signUp(name);
    await app.prisma.user.update({ where: { id: user.id }, data: { role: "admin" } });
    return user;
  };

  it("deactivates at once: sockets and sessions end, sign-in and API tokens are refused, messages stay; reactivation lets them back", async () => {
    const admin = await makeAdmin("Mia");
    const { project, channel } = await createProjectWithChannel(app.prisma);
    const ned = await app.signUp("Ned");
    for (const user of [admin, ned]) {
      await app.prisma.membership.createMany({ data: [{ projectId: project.id, userId: user.id }], skipDuplicates: true });
      await app.prisma.participant.createMany({ data: [{ conversationId: channel.id, userId: user.id }], skipDuplicates: true });
    }
    const { message } = await postMessage(app.prisma, { userId: ned.id, input: { conversationId: channel.id, clientId: randomUUID(), content: "Still here after I go" } });
    const { token } = await createApiToken(app.prisma, { userId: ned.id, name: "bot" });
    const phone = await app.signIn(ned);
    const sockets = [await app.connect(ned), await app.connect(phone)];
    const endedEvents: unknown[] = [];
    sockets[1]!.on("session:ended", (payload) => endedEvents.push(payload));

    expect(await deactivate(ned.id, admin.id)).toMatchObject({ id: ned.id, deactivatedAt: expect.any(String) });

    await until(() => sockets.every((socket) => socket.disconnected), "every socket of the deactivated person to end");
    expect(endedEvents).toEqual([{ reason: "signed_out" }]);
    expect(ended).toHaveLength(2);
    expect(await getUserSession(app.runtime.auth, new Headers({ cookie: phone.cookie }))).toBeNull();
    expect(await signInStatus(app, ned.email)).toEqual({ status: 403, message: "This account is deactivated. Ask an admin to reactivate it." });
    expect(await app.prisma.session.count({ where: { userId: ned.id } })).toBe(0);
    await expect(authenticateApiToken(app.prisma, token)).rejects.toMatchObject({ code: "forbidden", message: "This account is deactivated. Ask an admin to reactivate it." });
    await expect(app.connect(phone)).rejects.toThrow(/signed out/i);
    const page = await listMessages(app.prisma, { userId: admin.id, conversationId: channel.id });
    expect(page.messages.find((each) => each.id === message.id)).toMatchObject({ content: "Still here after I go", author: { name: "Ned" } });
    const directory = (await getProjectDirectory(app.prisma, { userId: admin.id }))?.members.map((member) => member.name);
    expect(directory).toContain("Mia");
    expect(directory).not.toContain("Ned");

    await reactivatePerson(app.prisma, { userId: ned.id });
    expect((await signInStatus(app, ned.email)).status).toBe(200);
    expect(await authenticateApiToken(app.prisma, token)).toMatchObject({ id: ned.id });
  });

  it("changes a role, and never leaves the people without an active admin", async () => {
    await app.prisma.user.updateMany({ where: { role: "admin" }, data: { role: "member" } });
    const [olu, pia] = [await makeAdmin("Olu"), await app.signUp("Pia")];

    expect(await changeRole(app.prisma, { userId: pia.id, role: "debug" })).toMatchObject({ role: "debug" });
    expect(await getUserSession(app.runtime.auth, new Headers({ cookie: pia.cookie }))).toMatchObject({ user: { role: "debug" } });
    expect(await failure(changeRole(app.prisma, { userId: olu.id, role: "member" }))).toMatchObject({ code: "conflict", message: "This is the only admin: make someone else an admin first." });
    expect(await failure(deactivate(olu.id, olu.id))).toMatchObject({ code: "bad_request", message: "You cannot deactivate your own account. Another admin can." });

    // Two admins deactivating each other at the same moment: one of them stays.
    await changeRole(app.prisma, { userId: pia.id, role: "admin" });
    const outcomes = await Promise.allSettled([deactivate(olu.id, pia.id), deactivate(pia.id, olu.id)]);
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    expect(outcomes.find((outcome) => outcome.status === "rejected")).toMatchObject({ reason: { code: "conflict" } });
    expect(await app.prisma.user.count({ where: { role: "admin", deactivatedAt: null, deletedAt: null } })).toBe(1);
    // A deactivated admin does not count: demoting the active one is refused.
    const active = (await listPeople(app.prisma)).find((person) => person.role === "admin" && !person.deactivatedAt)!;
    expect(await failure(changeRole(app.prisma, { userId: active.id, role: "member" }))).toMatchObject({ code: "conflict" });
  });

  it("lists people with when they were last seen, from their live connections", async () => {
    const quinn = await app.signUp("Quinn");
    expect((await listPeople(app.prisma, { userId: quinn.id }))[0]).toMatchObject({ name: "Quinn", lastSeenAt: null, deactivatedAt: null });
    const before = Date.now();
    await app.connect(quinn);
    await until(async () => (await listPeople(app.prisma, { userId: quinn.id }))[0]?.lastSeenAt !== null, "Quinn to be seen");
    const seen = Date.parse((await listPeople(app.prisma, { userId: quinn.id }))[0]!.lastSeenAt!);
    expect(seen).toBeGreaterThanOrEqual(before - 1000);
  });
});
