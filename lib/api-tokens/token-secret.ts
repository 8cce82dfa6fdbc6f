import { createHash, randomBytes } from "node:crypto";

/** Tokens say what they are, so a leaked one is easy to recognise (and to scan for). */
export const TOKEN_PREFIX = "chorus_";

export function newTokenSecret(): string {
  return `${TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
}

/** Only this is stored: a database leak reveals no usable token. */
export function hashToken(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/** What the token list shows to tell tokens apart: "chorus_AbC1…". */
export function displayPrefix(token: string): string {
  return token.slice(0, TOKEN_PREFIX.length + 4);
}
