import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInSchema } from "@/lib/auth/credentials";
import { signIn } from "@/lib/auth/sign-in-out";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-request";
import { MAX_BODY_BYTES } from "@/lib/http/guard-request";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp } from "../support/test-app";

/** The auth API over real HTTP, behind the same request guard as production. */
describe("sign-up and sign-in, whatever the entry point", () => {
  let app: TestApp;
  const password = "correct-horse-1";

  beforeAll(async () => {
    app = await TestApp.start();
    await createProjectWithChannel(app.prisma);
  });
  afterAll(() => app.close());

  const api = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${app.url}/api/auth${path}`, { method: "POST", headers: { "content-type": "application/json", origin: app.url, ...headers }, body: JSON.stringify(body) });
  const signUp = (body: Record<string, unknown>) => api("/sign-up/email", body);
  const newEmail = () => `someone.${crypto.randomUUID()}@example.test`;

  it("refuses through the API what the sign-up form refuses", async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: "x".repeat(900_000), email: newEmail(), password }, /at most 60 characters/],
      [{ name: "Eight", email: newEmail(), password: "abcdefgh" }, /Too weak/],
      [{ name: "Bad Email", email: "not-an-email", password }, /valid email address/],
      [{ name: "Nul\u0000Name", email: newEmail(), password }, /control characters/],
    ];
    for (const [body, message] of cases) {
      const response = await signUp(body);
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((await response.json()).message).toMatch(message);
    }
    expect(await app.prisma.user.count({ where: { name: { contains: "xxxxxxxxxx" } } })).toBe(0);
    const fine = await signUp({ name: "  Fine Name  ", email: newEmail().toUpperCase(), password });
    expect(fine.status).toBe(200);
    expect((await fine.json()).user).toMatchObject({ name: "Fine Name", email: expect.stringMatching(/^someone\..*@example\.test$/) });
  });

  it("slows down one account after wrong attempts without locking out another account", async () => {
    const victim = newEmail();
    const other = newEmail();
    await signUp({ name: "Victim", email: victim, password });
    await signUp({ name: "Other", email: other, password });

    const attempts: number[] = [];
    for (let i = 0; i < 7; i++) attempts.push((await api("/sign-in/email", { email: victim, password: `wrong-${i}-x` })).status);
    expect(attempts.slice(0, 6)).toEqual([401, 401, 401, 401, 401, 401]);
    expect(attempts[6]).toBe(429);
    const refused = await api("/sign-in/email", { email: victim, password });
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await refused.json()).message).toMatch(/Too many attempts\. Try again in \d+ seconds?\./);

    expect((await api("/sign-in/email", { email: other, password })).status).toBe(200);

    // The form action meets the same throttle (one limiter, kept in the database).
    const form = signIn(app.runtime.auth, { input: signInSchema.parse({ email: victim, password }), headers: new Headers({ origin: app.url }) });
    await expect(form).rejects.toMatchObject({ code: "rate_limited", message: expect.stringMatching(/Try again in/) });
  });

  it("does not let a forged X-Forwarded-For reset the per-address count (no proxy is trusted)", async () => {
    await app.prisma.signInThrottle.deleteMany({ where: { key: { startsWith: "address:" } } });
    const results: number[] = [];
    for (let i = 0; i < 22; i++) {
      const response = await api("/sign-in/email", { email: newEmail(), password }, { "x-forwarded-for": `203.0.113.${i}` });
      results.push(response.status);
    }
    // Unknown accounts, fresh forged addresses: the 21st attempt from this one address is over its allowance.
    expect(results.slice(0, 21).every((status) => status === 401)).toBe(true);
    expect(results[21]).toBe(429);
    const throttle = await app.prisma.signInThrottle.findUnique({ where: { key: "address:127.0.0.1" } });
    expect(throttle).toMatchObject({ attempts: 21, blockedUntil: expect.any(Date) });
    expect(await app.prisma.signInThrottle.count({ where: { key: { startsWith: "address:203.0.113." } } })).toBe(0);
    await app.prisma.signInThrottle.deleteMany({ where: { key: { startsWith: "address:" } } });
  });

  it("answers a body over the limit with 413 before reading it", async () => {
    const response = await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url },
      body: "x".repeat(MAX_BODY_BYTES + 1),
    });
    expect(response.status).toBe(413);
    expect((await response.json()).error).toEqual({ code: "payload_too_large", message: "This request is too large: at most 1 MB can be sent at once." });
  });

  it("keeps session cookies HttpOnly and SameSite=Lax, without Secure over plain http", async () => {
    const response = await signUp({ name: "Cookie", email: newEmail(), password });
    const cookie = response.headers.getSetCookie().find((header) => header.includes("session_token"))!;
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
  });
});

describe("behind a trusted proxy (TRUST_PROXY=1)", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await TestApp.start({ env: { TRUST_PROXY: "1" } });
    await createProjectWithChannel(app.prisma);
  });
  afterAll(() => app.close());

  it("marks cookies Secure when the proxy says the browser used https, and counts attempts per forwarded address", async () => {
    const email = `proxy.${crypto.randomUUID()}@example.test`;
    const response = await fetch(`${app.url}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "https://chat.example", host: "chat.example", "x-forwarded-proto": "https", "x-forwarded-host": "chat.example", "x-forwarded-for": "198.51.100.7" },
      body: JSON.stringify({ name: "Proxied", email, password: "correct-horse-1" }),
    });
    expect(response.status).toBe(200);
    const cookie = response.headers.getSetCookie().find((header) => header.includes("session_token"))!;
    expect(cookie).toMatch(/; Secure/);

    // The client address comes from the proxy's header, and a client cannot pass its own copy of ours.
    await fetch(`${app.url}/api/auth/sign-in/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: app.url, "x-forwarded-for": "198.51.100.9", [CLIENT_ADDRESS_HEADER]: "10.9.9.9" },
      body: JSON.stringify({ email, password: "wrong-password-1" }),
    });
    expect(await app.prisma.signInThrottle.findUnique({ where: { key: "address:198.51.100.9" } })).toMatchObject({ attempts: 1 });
    expect(await app.prisma.signInThrottle.findUnique({ where: { key: "address:10.9.9.9" } })).toBeNull();
  });
});
