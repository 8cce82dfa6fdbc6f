import { describe, expect, it } from "vitest";
import { crossSiteVerdict, type OriginPolicy, type RequestHead } from "./cross-site";

const own = "http://chat.local:3000";
const policy: OriginPolicy = { trustedProxies: 0, allowedOrigins: ["https://chat.example.com"] };
const cookie = "better-auth.session_token=abc";

function verdict(method: string, url: string, headers: Record<string, string>, with_: OriginPolicy = policy) {
  const request: RequestHead = { method, url, headers: { host: "chat.local:3000", ...headers } };
  return crossSiteVerdict(request, with_);
}

describe("crossSiteVerdict", () => {
  it("lets reads through from anywhere", () => {
    for (const method of ["GET", "HEAD", "OPTIONS"]) expect(verdict(method, "/c/1", { cookie, origin: "https://evil.example" })).toBeNull();
  });

  it("refuses a server action with a session cookie and no Origin, and one from another site", () => {
    expect(verdict("POST", "/c/1", { cookie, "next-action": "7f00" })).toBe("no-origin");
    expect(verdict("POST", "/c/1", { cookie, "next-action": "7f00", origin: "https://evil.example" })).toBe("foreign-origin");
    expect(verdict("POST", "/c/1", { cookie, "next-action": "7f00", origin: "null" })).toBe("foreign-origin");
    // Same site is not same origin: a sibling subdomain could forge it.
    expect(verdict("POST", "/c/1", { cookie, "next-action": "7f00", "sec-fetch-site": "same-site" })).toBe("no-origin");
  });

  it("accepts Chorus's own pages: the request's origin, APP_URL's, or Sec-Fetch-Site: same-origin without Origin", () => {
    expect(verdict("POST", "/c/1", { cookie, origin: own })).toBeNull();
    expect(verdict("POST", "/c/1", { cookie, origin: "https://chat.example.com" })).toBeNull();
    expect(verdict("POST", "/c/1", { cookie, "sec-fetch-site": "same-origin" })).toBeNull();
    expect(verdict("POST", "/c/1", { cookie, origin: "https://evil.example", "sec-fetch-site": "same-origin" })).toBe("foreign-origin");
  });

  it("refuses sign-in and sign-up without proof even with no cookie (login CSRF), by form or auth API", () => {
    expect(verdict("POST", "/sign-in", {})).toBe("no-origin");
    expect(verdict("POST", "/api/auth/sign-in/email", {})).toBe("no-origin");
    expect(verdict("POST", "/api/auth/sign-up/email", { origin: "https://evil.example" })).toBe("foreign-origin");
    expect(verdict("POST", "/api/auth/sign-in/email", { origin: own })).toBeNull();
  });

  it("lets scripts with a personal API token (no cookie) change things through the HTTP API without an Origin", () => {
    expect(verdict("POST", "/api/conversations/1/messages", { authorization: "Bearer chorus_x" })).toBeNull();
    expect(verdict("DELETE", "/api/agents/1/knowledge/2", { authorization: "Bearer chorus_x" })).toBeNull();
    // With a cookie the same request could be a browser's: it needs the proof.
    expect(verdict("POST", "/api/conversations/1/messages", { cookie })).toBe("no-origin");
    expect(verdict("PUT", "/api/conversations/1/messages", { cookie, origin: "https://evil.example" })).toBe("foreign-origin");
  });

  it("does not mistake a path that only looks like the token API for it", () => {
    expect(verdict("POST", "/api/x/../../sign-in", {})).toBe("no-origin");
    expect(verdict("POST", "/api/x/%2e%2e/auth/sign-in/email", {})).toBe("no-origin");
    expect(verdict("POST", "/api/auth", {})).toBe("no-origin");
    expect(verdict("POST", "//evil.example/api/conversations", {})).toBe("no-origin");
  });

  it("works the request's own origin out behind a trusted proxy only", () => {
    const proxied = { cookie, origin: "https://chat.proxy", "x-forwarded-host": "chat.proxy", "x-forwarded-proto": "https" };
    expect(verdict("POST", "/c/1", proxied, { trustedProxies: 1, allowedOrigins: [] })).toBeNull();
    expect(verdict("POST", "/c/1", proxied, { trustedProxies: 0, allowedOrigins: [] })).toBe("foreign-origin");
  });
});
