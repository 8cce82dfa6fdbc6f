import type { IncomingMessage, ServerResponse } from "node:http";
import { toErrorPayload, AppError } from "@/lib/errors/app-error";
import { formatBytes } from "@/lib/attachments/format-bytes";
import { AVATAR_MAX_BYTES } from "@/lib/avatars/avatar-rules";
import { log } from "@/lib/log/logger";
import { CLIENT_ADDRESS_HEADER, clientAddress, requestProtocol } from "./client-request";
import { crossSiteVerdict, type CrossSiteVerdict, type OriginPolicy } from "./cross-site";

/** Larger bodies are refused before anything reads them. */
export const MAX_BODY_BYTES = 1024 * 1024;
/** Knowledge uploads take files of up to 10 MB (plus the multipart envelope). */
const UPLOAD_BODY_BYTES = 10 * 1024 * 1024 + 64 * 1024;
const UPLOAD_PATH = /^\/api\/agents\/[^/]+\/knowledge\/?(\?|$)/;

/** Attachments take files of up to ATTACHMENT_MAX_MB (plus the multipart envelope). */
const ATTACHMENT_PATH = /^\/api\/conversations\/[^/]+\/attachments\/?(\?|$)/;
const ENVELOPE_BYTES = 64 * 1024;
/** A person's picture: up to AVATAR_MAX_BYTES (plus the envelope). */
const AVATAR_PATH = /^\/api\/avatars\/?(\?|$)/;

/** How large a body this request may send. */
export function bodyLimitFor(url: string | undefined, base = MAX_BODY_BYTES, attachmentBytes = 0): number {
  if (url && ATTACHMENT_PATH.test(url)) return Math.max(base, attachmentBytes + ENVELOPE_BYTES);
  if (url && AVATAR_PATH.test(url)) return Math.max(base, AVATAR_MAX_BYTES + ENVELOPE_BYTES);
  return url && UPLOAD_PATH.test(url) ? Math.max(base, UPLOAD_BODY_BYTES) : base;
}

const FORWARDING_HEADERS = ["x-forwarded-for", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-port", "forwarded", "x-real-ip"];

export interface RequestGuardOptions extends OriginPolicy {
  maxBodyBytes?: number;
  /** The largest attachment (ATTACHMENT_MAX_MB). */
  attachmentMaxBytes?: number;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

export interface RequestGuard {
  /** Wraps the app's handler (Next's, or the auth API alone). */
  wrap(handler: Handler): Handler;
  /** Resolves when no request is being answered (or after `timeoutMs`): shutdown lets them finish. */
  drain(timeoutMs: number): Promise<void>;
}

/**
 * The HTTP entry point every request passes first: the client's address is worked out once
 * (and a client-sent copy of our header is dropped), forwarding headers are removed unless a
 * proxy is trusted, requests another site may have forged get 403 (cross-site.ts: the app's one
 * CSRF check), oversized bodies get 413, and cookies are marked Secure when a trusted proxy says
 * the browser used https.
 */
export function createRequestGuard({ trustedProxies, allowedOrigins, maxBodyBytes = MAX_BODY_BYTES, attachmentMaxBytes = 0 }: RequestGuardOptions): RequestGuard {
  let active = 0;
  const idle: (() => void)[] = [];
  const finished = () => {
    active -= 1;
    if (active === 0) idle.splice(0).forEach((resolve) => resolve());
  };
  return {
    wrap: (handler) => (req, res) => {
      const address = clientAddress(req.headers, req.socket.remoteAddress, trustedProxies);
      if (trustedProxies <= 0) for (const name of FORWARDING_HEADERS) delete req.headers[name];
      delete req.headers[CLIENT_ADDRESS_HEADER];
      if (address) req.headers[CLIENT_ADDRESS_HEADER] = address;

      const crossSite = crossSiteVerdict(req, { trustedProxies, allowedOrigins });
      if (crossSite) return refuseCrossSite(req, res, crossSite, address);
      const limit = bodyLimitFor(req.url, maxBodyBytes, attachmentMaxBytes);
      if (tooLarge(req, limit)) return refuseTooLarge(req, res, limit, attachmentMaxBytes);
      if (requestProtocol(req.headers, trustedProxies) === "https") markCookiesSecure(res);
      active += 1;
      res.once("close", finished);
      handler(req, res);
    },
    drain: (timeoutMs) =>
      active === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            idle.push(() => {
              clearTimeout(timer);
              resolve();
            });
          }),
  };
}

function tooLarge(req: IncomingMessage, maxBodyBytes: number): boolean {
  const declared = Number(req.headers["content-length"] ?? 0);
  if (declared > maxBodyBytes) return true;
  if (req.headers["transfer-encoding"] === undefined) return false;
  // A chunked body has no declared size: count it as it arrives and cut it off past the limit.
  // Counted where the HTTP parser hands each piece to the request, not with a "data" listener:
  // that would set the body flowing, and whatever the handler had not yet read would be lost.
  let received = 0;
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding) => {
    received += Buffer.isBuffer(chunk) ? chunk.length : 0;
    if (received <= maxBodyBytes) return push(chunk, encoding);
    if (!req.destroyed) {
      log.warn("request body cut off: too large", { path: req.url, received });
      req.destroy(new Error("Request body too large"));
    }
    return false;
  };
  return false;
}

function refuseTooLarge(req: IncomingMessage, res: ServerResponse, maxBodyBytes: number, attachmentMaxBytes: number): void {
  log.warn("request refused: body too large", { path: req.url, contentLength: req.headers["content-length"] });
  if (req.url && ATTACHMENT_PATH.test(req.url)) return refuse(req, res, new AppError("payload_too_large", `This file is too large: files can be at most ${formatBytes(attachmentMaxBytes)}.`));
  if (req.url && AVATAR_PATH.test(req.url)) {
    const message = `This picture is too large: a picture can be at most ${formatBytes(AVATAR_MAX_BYTES)}.`;
    return refuse(req, res, new AppError("payload_too_large", message, { avatar: message }));
  }
  const megabytes = Math.round((maxBodyBytes / 1024 / 1024) * 10) / 10;
  refuse(req, res, new AppError("payload_too_large", `This request is too large: at most ${megabytes} MB can be sent at once.`));
}

const crossSiteMessages: Record<CrossSiteVerdict, string> = {
  "foreign-origin": "Requests from other sites are refused. Scripts should use a personal API token (Authorization: Bearer) without cookies.",
  "no-origin":
    "This request does not say which site sent it (no Origin header), so it is refused as possibly forged. " +
    "Chorus's pages send one; scripts should use a personal API token (Authorization: Bearer) without cookies.",
};

function refuseCrossSite(req: IncomingMessage, res: ServerResponse, verdict: CrossSiteVerdict, address: string | undefined): void {
  log.warn("request refused: cross-site", {
    verdict,
    method: req.method,
    path: req.url,
    origin: req.headers.origin,
    secFetchSite: req.headers["sec-fetch-site"],
    withCookie: req.headers.cookie !== undefined,
    serverAction: req.headers["next-action"] !== undefined,
    address,
  });
  refuse(req, res, new AppError("forbidden", crossSiteMessages[verdict]));
}

/** Answers with the error as JSON without reading the body, then drops the connection. */
function refuse(req: IncomingMessage, res: ServerResponse, error: AppError): void {
  res.writeHead(error.status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify({ error: toErrorPayload(error) }));
  res.on("finish", () => req.socket.destroySoon?.());
}

function markCookiesSecure(res: ServerResponse): void {
  const secure = (value: string) => (/;\s*secure(\s*;|\s*$)/i.test(value) ? value : `${value}; Secure`);
  const withSecure = (value: number | string | readonly string[]) =>
    Array.isArray(value) ? value.map(secure) : typeof value === "string" ? secure(value) : value;
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => setHeader(name, name.toLowerCase() === "set-cookie" ? withSecure(value) : value);
  const appendHeader = res.appendHeader.bind(res);
  res.appendHeader = (name, value) => appendHeader(name, name.toLowerCase() === "set-cookie" ? (withSecure(value) as string | string[]) : value);
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.find((part) => typeof part === "object" && part !== null && !Array.isArray(part)) as Record<string, string | string[]> | undefined;
    for (const name of Object.keys(headers ?? {})) {
      if (name.toLowerCase() === "set-cookie") headers![name] = withSecure(headers![name]!) as string | string[];
    }
    return writeHead(status, ...rest);
  }) as typeof res.writeHead;
}
