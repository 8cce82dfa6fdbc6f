import { isAPIError } from "better-auth/api";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import type { Auth } from "./create-auth";
import type { SignInInput, SignUpInput } from "./credentials";

/** The same words for an unknown email and a wrong password: no hint which one was wrong. */
export const WRONG_CREDENTIALS = "Wrong email or password.";

export async function signUp(auth: Auth, { input, headers }: { input: SignUpInput; headers: Headers }): Promise<{ userId: string }> {
  try {
    const result = await auth.api.signUpEmail({ body: input, headers });
    return { userId: result.user.id };
  } catch (error) {
    if (isAPIError(error) && /USER_ALREADY_EXISTS/.test(String(error.body?.code))) {
      throw new AppError("conflict", "An account with this email already exists.", {
        email: "An account with this email already exists. Sign in instead.",
      });
    }
    throw expectedAuthError(error) ?? unexpected("sign-up failed", error);
  }
}

export async function signIn(auth: Auth, { input, headers }: { input: SignInInput; headers: Headers }): Promise<{ userId: string }> {
  try {
    const result = await auth.api.signInEmail({ body: input, headers });
    return { userId: result.user.id };
  } catch (error) {
    const expected = expectedAuthError(error);
    if (expected) throw expected;
    if (isAPIError(error) && error.statusCode < 500) throw new AppError("unauthorized", WRONG_CREDENTIALS);
    throw unexpected("sign-in failed", error);
  }
}

export async function signOut(auth: Auth, { headers }: { headers: Headers }): Promise<void> {
  await auth.api.signOut({ headers });
}

/** What our own hooks refused (throttle, validation), in the app's terms. */
export function expectedAuthError(error: unknown): AppError | null {
  if (!isAPIError(error)) return null;
  const message = typeof error.body?.message === "string" ? error.body.message : error.message;
  if (error.body?.code === "TOO_MANY_ATTEMPTS") return new AppError("rate_limited", message);
  if (error.body?.code === "ACCOUNT_DEACTIVATED" || error.body?.code === "INVITE_REQUIRED") return new AppError("forbidden", message);
  if (error.body?.code === "INVALID_INPUT") {
    const field = (error.body as { field?: unknown }).field;
    return new AppError("bad_request", message, typeof field === "string" ? { [field]: message } : undefined);
  }
  return null;
}

function unexpected(what: string, error: unknown): unknown {
  log.error(what, { error });
  return error;
}
