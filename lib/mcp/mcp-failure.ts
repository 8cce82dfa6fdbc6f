import { AppError, type ErrorCode } from "@/lib/errors/app-error";

/**
 * Why a server's tools cannot be listed or one of them called:
 * - `unavailable`: turned off, unreachable, refused, or its secrets cannot be opened;
 * - `timeout`: it did not answer in time (the connection stays for the next call);
 * - `failed`: it answered the call with a protocol error (an unknown tool, bad arguments).
 * An `AppError` (503 `unavailable` with the sentence), so an HTTP route says it as it is; the
 * turn loop gives the sentence to the model as the tool's result.
 */
export class McpFailure extends AppError {
  constructor(
    readonly kind: "unavailable" | "timeout" | "failed",
    readonly serverName: string,
    /** The reason alone ("refused the connection (is it running, on that port?)"). */
    readonly reason: string,
    what = `MCP server ${serverName}`,
  ) {
    super("unavailable", `${what} ${reason}.`);
    this.name = "McpFailure";
  }
}

/**
 * The pool is built in server.ts's module graph, while route handlers run in Next's bundle, where
 * AppError is another class: a failure coming out of the pool is rebuilt here from its code and
 * message, so the route still answers its status and sentence instead of a 500.
 */
export async function fromPool<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw rebuildAppError(error);
  }
}

export function rebuildAppError(error: unknown): unknown {
  if (error instanceof AppError || !(error instanceof Error) || (error.name !== "AppError" && error.name !== "McpFailure")) return error;
  const code = (error as { code?: unknown }).code;
  const rebuilt = typeof code === "string" ? new AppError(code as ErrorCode, error.message) : null;
  return rebuilt?.status ? rebuilt : error;
}
