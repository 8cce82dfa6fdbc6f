import { AppError, toErrorPayload, type ErrorCode } from "@/lib/errors/app-error";
import { DATABASE_RETRY_AFTER_S, toClientError } from "@/lib/errors/client-error";

/** A result with a status other than 200 (201 Created). */
export class WithStatus<T> {
  constructor(
    readonly data: T,
    readonly status: number,
  ) {}
}

/** Headers that tell a client what to do next: how to authenticate, when to retry. */
const headersByCode: Partial<Record<ErrorCode, Record<string, string>>> = {
  unauthorized: { "www-authenticate": 'Bearer realm="chorus"' },
  unavailable: { "retry-after": String(DATABASE_RETRY_AFTER_S) },
};

/** Route handlers answer `{ data }` or `{ error }` with the error's HTTP status. */
export async function jsonResponse<T>(name: string, run: () => Promise<T | WithStatus<T>>): Promise<Response> {
  try {
    const result = await run();
    return result instanceof WithStatus ? Response.json({ data: result.data }, { status: result.status }) : Response.json({ data: result });
  } catch (error) {
    return errorResponse(name, error);
  }
}

/** A failure as `{ error }` with its HTTP status (logged when it is not the client's doing), for routes that answer otherwise with something else than JSON. */
export function errorResponse(name: string, error: unknown): Response {
  const failure = toClientError(error, "route failed", { route: name });
  return Response.json({ error: toErrorPayload(failure) }, { status: failure.status, headers: headersByCode[failure.code] });
}

/** The request's JSON body, or a 400 that shows what is expected. */
export async function readJsonBody(request: Request, example: string): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", `The body must be JSON, like ${example}, sent with Content-Type: application/json.`);
  }
}
