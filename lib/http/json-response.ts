import { AppError, toErrorPayload } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";

/** A result with a status other than 200 (201 Created). */
export class WithStatus<T> {
  constructor(
    readonly data: T,
    readonly status: number,
  ) {}
}

/** Route handlers answer `{ data }` or `{ error }` with the error's HTTP status. */
export async function jsonResponse<T>(name: string, run: () => Promise<T | WithStatus<T>>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof WithStatus ? Response.json({ data: result.data }, { status: result.status }) : Response.json({ data: result });
  } catch (error) {
    if (!(error instanceof AppError)) log.error("route failed", { route: name, error });
    const status = error instanceof AppError ? error.status : 500;
    const headers = error instanceof AppError && error.code === "unauthorized" ? { "www-authenticate": 'Bearer realm="chorus"' } : undefined;
    return Response.json({ error: toErrorPayload(error) }, { status, headers });
  }
}

/** The request's JSON body, or a 400 that shows what is expected. */
export async function readJsonBody(request: Request, example: string): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", `The body must be JSON, like ${example}, sent with Content-Type: application/json.`);
  }
}
