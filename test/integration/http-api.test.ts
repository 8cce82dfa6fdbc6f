import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listConversations, POST as startConversation } from "@/app/api/conversations/route";
import { GET as listMessages, POST as postMessage } from "@/app/api/conversations/[conversationId]/messages/route";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { listApiTokens } from "@/lib/api-tokens/list-api-tokens";
import { revokeApiToken } from "@/lib/api-tokens/revoke-api-token";
import { RATE_LIMIT } from "@/lib/conversations/post-message";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

/** The HTTP API that scripts and bots use, called as Next calls its route handlers. */
describe("HTTP API", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;
  let token: string;

  beforeAll(async () => {
    app = await TestApp.start();
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    alice = await app.signUp("Alice");
    bob = await app.signUp("Bob");
    token = (await createApiToken(app.prisma, { userId: alice.id, name: "deploy bot" })).token;
  });
  afterAll(() => app.close());

  const host = () => new URL(app.url).host;
  const request = (path: string, { method = "GET", body, auth, cookie, origin }: { method?: string; body?: unknown; auth?: string; cookie?: string; origin?: string } = {}) =>
    new Request(`${app.url}${path}`, {
      method,
      headers: {
        host: host(),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(auth ? { authorization: `Bearer ${auth}` } : {}),
        ...(cookie ? { cookie } : {}),
        ...(origin ? { origin } : {}),
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
  const params = (conversationId: string) => ({ params: Promise.resolve({ conversationId }) });
  const post = (content: string, options: { clientId?: string; auth?: string } = {}) =>
    postMessage(request(`/api/conversations/${channelId}/messages`, { method: "POST", auth: options.auth ?? token, body: { content, clientId: options.clientId } }), params(channelId));

  it("posts with a personal token, and a retried clientId returns the first message instead of posting twice", async () => {
    const clientId = randomUUID();
    const first = await post("deployed v1.2", { clientId });
    expect(first.status).toBe(201);
    const created = (await first.json()).data;
    expect(created).toMatchObject({ created: true, message: { content: "deployed v1.2", author: { kind: "user", id: alice.id } } });

    const again = await post("deployed v1.2", { clientId });
    expect(again.status).toBe(200);
    expect((await again.json()).data).toMatchObject({ created: false, message: { id: created.message.id, seq: created.message.seq } });
    expect(await app.prisma.message.count({ where: { conversationId: channelId, clientId } })).toBe(1);

    const page = await listMessages(request(`/api/conversations/${channelId}/messages`, { auth: token }), params(channelId));
    expect((await page.json()).data.messages[0]).toMatchObject({ id: created.message.id });
    const tokens = await listApiTokens(app.prisma, { userId: alice.id });
    expect(tokens[0]).toMatchObject({ name: "deploy bot", prefix: token.slice(0, 11), lastUsedAt: expect.any(String), revokedAt: null });
  });

  it("keeps only a hash of the token", async () => {
    const row = await app.prisma.apiToken.findFirstOrThrow({ where: { userId: alice.id } });
    expect(JSON.stringify(row)).not.toContain(token.slice(11));
    expect(row.tokenHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses a revoked token and a made-up one with 401 and a message saying what to do", async () => {
    const { id, token: doomed } = await createApiToken(app.prisma, { userId: bob.id, name: "old script" });
    expect((await post("before revoking", { auth: doomed })).status).toBe(201);
    await revokeApiToken(app.prisma, { userId: bob.id, tokenId: id });

    for (const auth of [doomed, "chorus_made-up", "not-even-a-token"]) {
      const response = await post("after revoking", { auth });
      expect(response.status).toBe(401);
      expect((await response.json()).error.message).toMatch(/revoked or mistyped/);
    }
    await expect(revokeApiToken(app.prisma, { userId: alice.id, tokenId: id })).rejects.toMatchObject({ code: "not_found" });
  });

  it("applies the posting rate limit, and refused posts do not use up the allowance", async () => {
    const carol = await app.signUp("Carol");
    const { token: busy } = await createApiToken(app.prisma, { userId: carol.id, name: "busy bot" });
    const statuses: number[] = [];
    for (let i = 0; i <= RATE_LIMIT; i++) statuses.push((await post(`burst ${i}`, { auth: busy })).status);
    expect(statuses.slice(0, RATE_LIMIT).every((status) => status === 201)).toBe(true);
    const refused = await post("one too many", { auth: busy });
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.message).toMatch(/too fast/);

    // A client retrying every 100 ms while refused still gets through once a token has refilled (0.5 s).
    const started = Date.now();
    let status = 429;
    while (status === 429 && Date.now() - started < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await post("retrying", { auth: busy })).status;
    }
    expect(status).toBe(201);
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  // A post another site makes with the cookie is refused before any handler (cross-site-requests.test.ts).
  it("accepts the session cookie from Chorus's own pages, and answers a request without credentials with 401", async () => {
    const path = `/api/conversations/${channelId}/messages`;
    const sameSite = await postMessage(request(path, { method: "POST", cookie: alice.cookie, origin: app.url, body: { content: "from the page" } }), params(channelId));
    expect(sameSite.status).toBe(201);
    const anonymous = await postMessage(request(path, { method: "POST", body: { content: "who am I" } }), params(channelId));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toMatch(/Bearer/);
  });

  it("answers bad bodies with 400 and a message a person can act on", async () => {
    const path = `/api/conversations/${channelId}/messages`;
    const notJson = await postMessage(request(path, { method: "POST", auth: token, body: "content=hi" }), params(channelId));
    expect(notJson.status).toBe(400);
    expect((await notJson.json()).error.message).toMatch(/must be JSON/);
    const nul = await post("a\u0000b");
    expect(nul.status).toBe(400);
    expect((await nul.json()).error.message).toMatch(/control characters \(U\+0000 at character 2\)/);
    const badId = await postMessage(request("/api/conversations/nope/messages", { method: "POST", auth: token, body: { content: "x" } }), params("nope"));
    expect(badId.status).toBe(400);
  });

  it("opens a room by name for project members (the same room twice is one conversation) and refuses outsiders", async () => {
    const open = () => startConversation(request("/api/conversations", { method: "POST", auth: token, body: { type: "room", room: "page:docs.intro" } }));
    const first = await open();
    expect(first.status).toBe(201);
    const { conversationId } = (await first.json()).data;
    const second = await open();
    expect(second.status).toBe(200);
    expect((await second.json()).data).toEqual({ conversationId, created: false });

    const list = await (await listConversations(request("/api/conversations", { auth: token }))).json();
    expect(list.data.map((conversation: { id: string }) => conversation.id)).toContain(conversationId);

    // Someone from another project cannot open this project's rooms.
    const { project: other } = await createProjectWithChannel(app.prisma, "elsewhere");
    const outsider = await app.prisma.user.create({ data: { id: randomUUID(), name: "Eve", email: `eve.${randomUUID()}@example.test`, handle: `eve${Date.now()}` } });
    await app.prisma.membership.create({ data: { projectId: other.id, userId: outsider.id } });
    const { token: eveToken } = await createApiToken(app.prisma, { userId: outsider.id, name: "eve" });
    const { project } = await app.prisma.conversation.findUniqueOrThrow({ where: { id: conversationId }, select: { project: { select: { id: true } } } });
    const refused = await startConversation(request("/api/conversations", { method: "POST", auth: eveToken, body: { type: "room", room: "page:docs.intro", projectId: project.id } }));
    expect(refused.status).toBe(403);
    const history = await listMessages(request(`/api/conversations/${conversationId}/messages`, { auth: eveToken }), params(conversationId));
    expect(history.status).toBe(403);
  });

  it("opens a DM with another member, and explains a body it cannot use", async () => {
    const dm = await startConversation(request("/api/conversations", { method: "POST", auth: token, body: { type: "dm", otherUserId: bob.id } }));
    expect(dm.status).toBe(201);
    const unknownType = await startConversation(request("/api/conversations", { method: "POST", auth: token, body: { type: "party" } }));
    expect(unknownType.status).toBe(400);
    expect((await unknownType.json()).error.message).toMatch(/"dm", "agent_dm", "room" or "channel"/);
    const badRoom = await startConversation(request("/api/conversations", { method: "POST", auth: token, body: { type: "room", room: "no spaces please" } }));
    expect(badRoom.status).toBe(400);
    expect((await badRoom.json()).error.message).toMatch(/room: A room is a name like task:42/);
  });
});
