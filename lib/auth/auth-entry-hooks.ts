import { APIError, createAuthMiddleware, getSessionFromCtx } from "better-auth/api";
import type { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { CLIENT_ADDRESS_HEADER } from "@/lib/http/client-request";
import { log } from "@/lib/log/logger";
import { nameSchema, passwordSchema, signInSchema, signUpSchema } from "./credentials";
import { forgiveAttempt, retryAfterText, takeAttempt, type ThrottleKey } from "./sign-in-throttle";

type Body = Record<string, unknown>;

/** Fields of better-auth's endpoints that must follow the app's rules, by path. */
const rules: Record<string, (body: Body) => Body> = {
  "/sign-up/email": (body) => ({ ...withoutImage(body), ...parse(signUpSchema, body) }),
  "/sign-in/email": (body) => ({ ...body, ...parse(signInSchema, body) }),
  "/update-user": (body) => ({ ...withoutImage(body), ...(body.name === undefined ? {} : { name: parse(nameSchema, body.name) }) }),
  "/change-password": (body) => ({ ...body, newPassword: parse(passwordSchema, body.newPassword) }),
  "/reset-password": (body) => ({ ...body, newPassword: parse(passwordSchema, body.newPassword) }),
};

/**
 * better-auth runs these hooks for its HTTP API and for `auth.api.*` calls alike, so the sign-in
 * form and a script posting to /api/auth/sign-in/email meet the same validation and the same
 * throttle: what the form refuses, the API refuses.
 */
export function authEntryHooks(prisma: Prisma) {
  return {
    before: createAuthMiddleware(async (ctx) => {
      const rule = rules[ctx.path];
      if (!rule) return;
      const body = rule((ctx.body ?? {}) as Body);
      const address = ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? undefined;
      // Changing a password or deleting the account proves the current one: guessing it there is throttled as at sign-in.
      const account = provesPassword(ctx.path) ? (await getSessionFromCtx(ctx))?.user.email : body.email;
      const keys = throttleKeys(ctx.path, String(account ?? ""), address);
      if (keys.length > 0) {
        const verdict = await takeAttempt(prisma, keys);
        if (!verdict.allowed) {
          log.warn("auth attempt throttled", { path: ctx.path, address, retryAfterS: verdict.retryAfterS });
          throw new APIError("TOO_MANY_REQUESTS", {
            message: `Too many attempts. Try again in ${retryAfterText(verdict.retryAfterS)}.`,
            code: "TOO_MANY_ATTEMPTS",
          }, { "retry-after": String(verdict.retryAfterS) });
        }
      }
      return { context: { body } };
    }),
    after: createAuthMiddleware(async (ctx) => {
      if (ctx.path !== "/sign-in/email" || !ctx.context.newSession) return;
      await forgiveAttempt(prisma, { account: String((ctx.body as Body).email ?? ""), address: ctx.headers?.get(CLIENT_ADDRESS_HEADER) ?? undefined });
    }),
  };
}

/** Endpoints of a signed-in person that check their password. */
function provesPassword(path: string): boolean {
  return path === "/change-password" || path === "/verify-password";
}

function throttleKeys(path: string, email: string, address: string | undefined): ThrottleKey[] {
  if (path !== "/sign-in/email" && !(provesPassword(path) && email)) return [];
  return [{ kind: "account", value: email }, ...(address ? [{ kind: "address" as const, value: address }] : [])];
}

/**
 * better-auth lets a person set `image` (any string) at sign-up and through /update-user; it holds
 * the key of their avatar's blob, which only the avatar upload writes (lib/avatars).
 */
function withoutImage(body: Body): Body {
  if (body.image === undefined) return body;
  throw new APIError("BAD_REQUEST", {
    message: "Change your picture in Settings, under Avatar: it cannot be set here.",
    code: "INVALID_INPUT",
    field: "image",
  });
}

function parse<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new APIError("BAD_REQUEST", {
    message: issue?.message ?? "Invalid input.",
    code: "INVALID_INPUT",
    ...(issue && issue.path.length > 0 ? { field: issue.path.join(".") } : {}),
  });
}
