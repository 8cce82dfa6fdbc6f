/** The origin a browser on this host would send: scheme from the proxy header or plain http. */
export function requestOrigin(headers: Headers | Record<string, string | string[] | undefined>): string | undefined {
  const get = (name: string): string | undefined => {
    if (headers instanceof Headers) return headers.get(name) ?? undefined;
    const value = headers[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const host = get("x-forwarded-host") ?? get("host");
  if (!host) return undefined;
  const proto = get("x-forwarded-proto")?.split(",")[0]?.trim() ?? "http";
  return `${proto}://${host}`;
}

/** Same-origin, or one of the configured public origins. A missing Origin is not trusted. */
export function isAllowedOrigin(origin: string | undefined, ownOrigin: string | undefined, extra: string[]): boolean {
  if (!origin) return false;
  return origin === ownOrigin || extra.includes(origin);
}
