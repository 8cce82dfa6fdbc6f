import { header, isAllowedOrigin, requestOrigin, type HeaderBag } from "./client-request";

/** Methods that change nothing: a page on another site may cause them (links, images). */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export interface OriginPolicy {
  /** TRUST_PROXY: how far X-Forwarded-Host/-Proto may be believed when working out our own origin. */
  trustedProxies: number;
  /** Origins trusted besides the request's own (APP_URL's). */
  allowedOrigins: string[];
}

/** What the check reads of a request (its method, target and headers): Node's IncomingMessage fits. */
export interface RequestHead {
  method?: string;
  url?: string;
  headers: HeaderBag;
}

/** Why a request is refused: it names another site, or it does not say which site sent it. */
export type CrossSiteVerdict = "foreign-origin" | "no-origin";

/**
 * The one CSRF check, made by the HTTP entry (guard-request.ts) before Next, better-auth or a
 * route handler sees the request. A state-changing request must prove it comes from Chorus's own
 * pages (an allowed `Origin`, or `Sec-Fetch-Site: same-origin` when a browser sent no Origin)
 * when it carries a cookie (a browser attaches cookies to forged requests too), and always when it
 * is a server action or form post, or goes to the auth API: signing in from another site
 * (login CSRF) needs no cookie. Only the token API (/api outside /api/auth) without a cookie is
 * exempt: its credential is an Authorization header, which a browser never adds on its own, so
 * scripts with a personal API token need no Origin. (better-auth's own origin check, given the
 * same origins in lib/auth/create-auth.ts, only ever sees what passed this one.)
 * Returns null when the request may go on.
 */
export function crossSiteVerdict(request: RequestHead, policy: OriginPolicy): CrossSiteVerdict | null {
  if (SAFE_METHODS.has((request.method ?? "GET").toUpperCase())) return null;
  if (!header(request.headers, "cookie") && isTokenApi(request.url)) return null;
  const origin = header(request.headers, "origin");
  if (origin !== undefined) {
    return isAllowedOrigin(origin, requestOrigin(request.headers, policy.trustedProxies), policy.allowedOrigins) ? null : "foreign-origin";
  }
  return header(request.headers, "sec-fetch-site") === "same-origin" ? null : "no-origin";
}

/** The HTTP API for scripts: under /api/, except the auth API (better-auth's sign-in, sign-up…). */
const TOKEN_API = /^\/api\/(?!auth(\/|$))/;

/**
 * The request target read as a path, as the router reads it: parsing resolves `..` and `%2e%2e`
 * segments, so /api/x/../../sign-in counts as the page it reaches; a target that is not a plain
 * path gets no exemption.
 */
function isTokenApi(url: string | undefined): boolean {
  const absolute = `http://chorus.invalid${url ?? ""}`;
  return url?.startsWith("/") === true && URL.canParse(absolute) && TOKEN_API.test(new URL(absolute).pathname);
}
