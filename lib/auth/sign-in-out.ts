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
    log.error("sign-up failed", { email: input.email, error });
    throw error;
  }
}

export async function signIn(auth: Auth, { input, headers }: { input: SignInInput; headers: Headers }): Promise<{ userId: string }> {
  try {
    const result = await auth.api.signInEmail({ body: input, headers });
    return { userId: result.user.id };
  } catch (error) {
    if (isAPIError(error) && error.statusCode < 500) throw new AppError("unauthorized", WRONG_CREDENTIALS);
    log.error("sign-in failed", { error });
    throw error;
  }
}

export async function signOut(auth: Auth, { headers }: { headers: Headers }): Promise<void> {
  await auth.api.signOut({ headers });
}
