/**
 * What a request says about its client, believed only as far as the configured proxies go.
 * Without a trusted proxy (TRUST_PROXY=0) X-Forwarded-* headers are the client's own words:
 * anyone can send a fresh X-Forwarded-For per attempt, so they are ignored.
 */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

/** Set on every request by the HTTP entry point, after any client-sent value was removed. */
export const CLIENT_ADDRESS_HEADER = "x-chorus-client-address";

/** One header's value, from Node's header object or a fetch `Headers`. */
export function header(headers: HeaderBag, name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

function hopsFrom(headers: HeaderBag, name: string): string[] {
  return (header(headers, name) ?? "")
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The client's address: the socket's peer, or, behind `trustedProxies` proxies, the entry of
 * X-Forwarded-For that the outermost trusted proxy saw (each proxy appends its peer on the right).
 */
export function clientAddress(headers: HeaderBag, remoteAddress: string | undefined, trustedProxies: number): string | undefined {
  const peer = normaliseAddress(remoteAddress);
  if (trustedProxies <= 0) return peer;
  const forwarded = hopsFrom(headers, "x-forwarded-for");
  if (forwarded.length === 0) return peer;
  return normaliseAddress(forwarded[Math.max(0, forwarded.length - trustedProxies)]);
}

/** The protocol the browser used: https only when said by a trusted proxy or the public URL. */
export function requestProtocol(headers: HeaderBag, trustedProxies: number): "http" | "https" {
  if (trustedProxies <= 0) return "http";
  const protos = hopsFrom(headers, "x-forwarded-proto");
  return protos[Math.max(0, protos.length - trustedProxies)] === "https" ? "https" : "http";
}

/** The origin a browser on this host would send. */
export function requestOrigin(headers: HeaderBag, trustedProxies: number): string | undefined {
  const forwardedHost = trustedProxies > 0 ? hopsFrom(headers, "x-forwarded-host")[0] : undefined;
  const host = forwardedHost ?? header(headers, "host");
  return host ? `${requestProtocol(headers, trustedProxies)}://${host}` : undefined;
}

/** Same-origin, or one of the configured public origins. A missing Origin is not trusted. */
export function isAllowedOrigin(origin: string | undefined, ownOrigin: string | undefined, extra: string[]): boolean {
  if (!origin) return false;
  return origin === ownOrigin || extra.includes(origin);
}

/** `::ffff:127.0.0.1` and `127.0.0.1` are one client. */
function normaliseAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}
