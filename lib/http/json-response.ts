import { AppError, toErrorPayload } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";

/** Route handlers answer `{ data }` or `{ error }` with the error's HTTP status. */
export async function jsonResponse<T>(name: string, run: () => Promise<T>): Promise<Response> {
  try {
    return Response.json({ data: await run() });
  } catch (error) {
    if (!(error instanceof AppError)) log.error("route failed", { route: name, error });
    const status = error instanceof AppError ? error.status : 500;
    return Response.json({ error: toErrorPayload(error) }, { status });
  }
}
