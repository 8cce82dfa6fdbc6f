import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "better-auth/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST as postMessage } from "@/app/api/conversations/[conversationId]/messages/route";
import { createApiToken } from "@/lib/api-tokens/create-api-token";
import { createRequestGuard } from "@/lib/http/guard-request";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

/**
 * CSRF: a state-changing request with a cookie, a server action, or a sign-in must show it comes
 * from Chorus's own pages; the HTTP entry refuses it with 403 and the app's message otherwise.
 */
describe("requests another site may have forged", () => {
  let app: TestApp;
  let alice: TestUser;
  let channelId: string;
  const password = "correct-horse-1";
  const evil = "https://evil.example";

  beforeAll(async () => {
    app = await TestApp.start();
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    alice = await app.signUp("Alice");
  });
  afterAll(() => app.close());

  const signIn = (headers: Record<string, string>) =>
    fetch(`${app.url}/api/auth/sign-in/email`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ email: alice.email, password }) });

  async function expectRefused(response: Response, message: RegExp) {
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: { code: "forbidden", message: expect.stringMatching(message) } });
    expect(response.headers.getSetCookie()).toEqual([]);
  }

  it("refuses a sign-in with no Origin or from another site, cookie or not, and sets no session (login CSRF); Chorus's own pages sign in", async () => {
    const sessions = await app.prisma.session.count({ where: { userId: alice.id } });
    await expectRefused(await signIn({}), /no Origin header/);
    await expectRefused(await signIn({ origin: evil }), /other sites/);
    await expectRefused(await signIn({ origin: "null" }), /other sites/);
    await expectRefused(await signIn({ "sec-fetch-site": "cross-site" }), /no Origin header/);
    expect(await app.prisma.session.count({ where: { userId: alice.id } })).toBe(sessions);

    const signUp = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "Mallory", email: `mallory.${crypto.randomUUID()}@example.test`, password }),
    });
    await expectRefused(signUp, /no Origin header/);
    expect(await app.prisma.user.count({ where: { name: "Mallory" } })).toBe(0);

    // The page's own Origin, or Sec-Fetch-Site: same-origin from a browser that sent none.
    const own: Record<string, string>[] = [{ origin: app.url }, { "sec-fetch-site": "same-origin" }];
    for (const headers of own) {
      const response = await signIn(headers);
      expect(response.status).toBe(200);
      expect(response.headers.getSetCookie().some((cookie) => cookie.includes("session_token"))).toBe(true);
    }
  });

  it("answers a server action with the session cookie and no Origin, or from another site, with 403 (never 500) before Next sees it", async () => {
    const action = (headers: Record<string, string>) =>
      fetch(`${app.url}/c/${channelId}`, {
        method: "POST",
        headers: { "next-action": "7f3a9c", "content-type": "text/plain;charset=UTF-8", cookie: alice.cookie, ...headers },
        body: JSON.stringify([{ conversationId: channelId, content: "forged" }]),
      });
    await expectRefused(await action({}), /no Origin header/);
    await expectRefused(await action({ origin: evil }), /other sites/);
    // The sign-out endpoint too: the session still works afterwards.
    const signOut = await fetch(`${app.url}/api/auth/sign-out`, { method: "POST", headers: { cookie: alice.cookie, "content-type": "application/json" }, body: "{}" });
    await expectRefused(signOut, /no Origin header/);
    expect(await app.runtime.auth.api.getSession({ headers: new Headers({ cookie: alice.cookie }) })).not.toBeNull();
  });

  describe("the HTTP API behind the same entry", () => {
    let api: Server;
    let url: string;
    let token: string;

    beforeAll(async () => {
      token = (await createApiToken(app.prisma, { userId: alice.id, name: "script" })).token;
      // The real route handler behind the real guard, as Next would call it.
      const route = (request: Request) => postMessage(request, { params: Promise.resolve({ conversationId: channelId }) });
      api = createServer(createRequestGuard({ trustedProxies: 0, allowedOrigins: [] }).wrap(toNodeHandler(route)));
      await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
      url = `http://127.0.0.1:${(api.address() as AddressInfo).port}/api/conversations/${channelId}/messages`;
    });
    afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

    const post = (content: string, headers: Record<string, string>) =>
      fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ content }) });
    const posted = (content: string) => app.prisma.message.count({ where: { conversationId: channelId, content } });

    it("refuses a post with the session cookie and no Origin, and posts nothing; a script's token and the page's cookie still post", async () => {
      await expectRefused(await post("cookie, no origin", { cookie: alice.cookie }), /no Origin header/);
      await expectRefused(await post("cookie, other site", { cookie: alice.cookie, origin: evil }), /other sites/);
      expect(await posted("cookie, no origin")).toBe(0);
      expect(await posted("cookie, other site")).toBe(0);

      expect((await post("from a script", { authorization: `Bearer ${token}` })).status).toBe(201);
      expect((await post("from the page", { cookie: alice.cookie, origin: new URL(url).origin })).status).toBe(201);
      expect(await posted("from a script")).toBe(1);
      expect(await posted("from the page")).toBe(1);
    });
  });
});
