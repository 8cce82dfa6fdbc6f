import "server-only";
import { headers } from "next/headers";
import { z } from "zod";
import { assertAdmin } from "@/lib/auth/assert-admin";
import { getSessionUser, type SessionUser } from "@/lib/auth/session-user";
import { AppError, toErrorPayload, type ErrorPayload } from "@/lib/errors/app-error";
import { toClientError } from "@/lib/errors/client-error";
import { getRuntime, type Runtime } from "@/lib/runtime/runtime";

const anything = z.unknown();

export type ActionResult<T> = { data: T } | { error: ErrorPayload };

interface PublicContext {
  runtime: Runtime;
  headers: Headers;
}

interface UserContext extends PublicContext {
  user: SessionUser;
}

/**
 * Every server action goes through here: input parsed by its zod schema (field errors come
 * back by name), expected failures returned as `{ error }`, unexpected ones logged and hidden.
 */
export function publicAction<Schema extends z.ZodType, T>(
  name: string,
  schema: Schema,
  run: (input: z.infer<Schema>, context: PublicContext) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return async (input) => {
    try {
      const parsed = parseInput(schema, input);
      const requestHeaders = await headers();
      const context = { runtime: await getRuntime(), headers: requestHeaders };
      return { data: await run(parsed, context) };
    } catch (error) {
      return failure(name, error);
    }
  };
}

/** As publicAction, for signed-in users only. */
export function userAction<Schema extends z.ZodType, T>(
  name: string,
  schema: Schema,
  run: (input: z.infer<Schema>, context: UserContext) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return publicAction(name, schema, async (input, context) => {
    const user = await getSessionUser(context.runtime.auth, context.headers);
    if (!user) throw new AppError("unauthorized", "Your session has expired. Sign in again.");
    return run(input, { ...context, user });
  });
}

/** As userAction, for admins only: anyone else is refused before their input is even read. */
export function adminAction<Schema extends z.ZodType, T>(
  name: string,
  schema: Schema,
  run: (input: z.infer<Schema>, context: UserContext) => Promise<T>,
): (input: unknown) => Promise<ActionResult<T>> {
  return userAction(name, anything, async (input, context) => {
    assertAdmin(context.user);
    return run(parseInput(schema, input), context);
  });
}

function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join(".") : "form";
    fields[field] ??= issue.message;
  }
  throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid input.", fields);
}

function failure(name: string, error: unknown): { error: ErrorPayload } {
  // Next's redirect()/notFound() work by throwing; they must propagate.
  if (isNextControlFlow(error)) throw error;
  return { error: toErrorPayload(toClientError(error, "action failed", { action: name })) };
}

function isNextControlFlow(error: unknown): boolean {
  const digest = (error as { digest?: unknown } | null)?.digest;
  return typeof digest === "string" && (digest.startsWith("NEXT_REDIRECT") || digest.startsWith("NEXT_HTTP_ERROR_FALLBACK"));
}
