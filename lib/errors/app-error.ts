/**
 * The one error type that crosses a boundary (server action result, HTTP response, socket ack).
 * Its message is written for the person who sees it; anything else is logged and reported
 * as `internal` without details.
 */
export type ErrorCode =
  | "bad_request"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "payload_too_large"
  | "rate_limited"
  | "internal"
  /** A service Chorus needs (the database) cannot be reached: worth retrying shortly. */
  | "unavailable";

const statusByCode: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  rate_limited: 429,
  internal: 500,
  unavailable: 503,
};

/** What a client is told about a failure that is not its doing; the details go to the log. */
export const INTERNAL_ERROR_MESSAGE = "Something went wrong on our side. Please try again.";

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Per-field messages for forms, keyed by field name. */
  readonly fields?: Record<string, string>;

  constructor(code: ErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = fields;
  }

  get status(): number {
    return statusByCode[this.code];
  }
}

/** What a client receives: `{ error }` with a code, a message and optional field errors. */
export interface ErrorPayload {
  code: ErrorCode;
  message: string;
  fields?: Record<string, string>;
}

export function toErrorPayload(error: unknown): ErrorPayload {
  if (error instanceof AppError) {
    return { code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) };
  }
  return { code: "internal", message: INTERNAL_ERROR_MESSAGE };
}
