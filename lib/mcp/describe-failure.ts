import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SecretUnreadableError } from "./secret-box";

const MAX_REASON_CHARS = 300;

/** What went wrong in words an admin can act on; the error's own message only when nothing better is known. */
export function describeFailure(error: unknown, { timeoutMs, command, stderr = "" }: { timeoutMs: number; command?: string; stderr?: string }): string {
  const said = lastLine(stderr);
  const saying = said ? `; it said: ${said}` : "";
  if (error instanceof SecretUnreadableError) return error.message;
  if (isTimeout(error)) return `did not answer within ${seconds(timeoutMs)}`;
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return `closed the connection${command ? " (the process exited)" : ""}${saying}`;
  if (error instanceof StreamableHTTPError && error.code !== undefined && error.code > 0) return httpStatus(error.code);
  const code = systemCode(error);
  if (code === "ENOENT" && command) return `the command ${command} was not found (is it installed, and on the PATH?)`;
  if (code === "EACCES" && command) return `the command ${command} is not allowed to run (is it executable?)`;
  if (code === "ECONNREFUSED") return "refused the connection (is it running, on that port?)";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "its host name could not be resolved";
  if (code === "ECONNRESET" || code === "UND_ERR_SOCKET") return "dropped the connection";
  if (code === "CERT_HAS_EXPIRED" || code?.startsWith("ERR_TLS") || code?.includes("CERT")) return `its TLS certificate was refused (${code})`;
  const message = error instanceof Error ? withCause(error) : String(error);
  return `${clip(message.replace(/^MCP error -?\d+: /, ""))}${saying}`;
}

/** fetch says only "fetch failed"; what failed is in its cause ("bad port", a TLS detail). */
function withCause(error: Error): string {
  const cause = error.cause instanceof Error ? error.cause.message : "";
  return cause && !error.message.includes(cause) ? `${error.message} (${cause})` : error.message;
}

/** A deadline passed: the SDK's own request timeout, or our AbortSignal.timeout. */
export function isTimeout(error: unknown): boolean {
  if (error instanceof McpError) return error.code === ErrorCode.RequestTimeout;
  return error instanceof Error && error.name === "TimeoutError";
}

function httpStatus(status: number): string {
  if (status === 401 || status === 403) return `refused Chorus's credentials (HTTP ${status}): check its headers`;
  if (status === 404) return "has no MCP endpoint at that url (HTTP 404)";
  if (status === 405 || status === 406 || status === 415) return `does not speak Streamable HTTP at that url (HTTP ${status})`;
  return `answered HTTP ${status}`;
}

/** Node's system error code, which fetch keeps in `cause`. */
function systemCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

const seconds = (ms: number) => (ms % 1_000 === 0 ? `${ms / 1_000} s` : `${(ms / 1_000).toFixed(1)} s`);
const clip = (text: string) => (text.length > MAX_REASON_CHARS ? `${text.slice(0, MAX_REASON_CHARS - 1)}…` : text);
const lastLine = (text: string) => clip(text.trim().split(/\r?\n/).at(-1)?.trim() ?? "");
