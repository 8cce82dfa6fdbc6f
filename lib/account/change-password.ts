import { isAPIError } from "better-auth/api";
import { z } from "zod";
import type { Auth } from "@/lib/auth/create-auth";
import { passwordSchema } from "@/lib/auth/credentials";
import { expectedAuthError } from "@/lib/auth/sign-in-out";
import { MAX_PASSWORD_LENGTH } from "@/lib/auth/password-policy";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Enter your current password." }).min(1, "Enter your current password.").max(MAX_PASSWORD_LENGTH, "Your current password is not right."),
  newPassword: passwordSchema,
  signOutOthers: z.boolean().default(false),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const WRONG_CURRENT = "Your current password is not right.";

/**
 * A new password, proven by the current one (throttled as sign-in is: lib/auth/auth-entry-hooks).
 * With `signOutOthers`, every other session of the person ends, and with it their live
 * connections on every node (the session's delete hook); this one stays signed in.
 */
export async function changePassword(auth: Auth, { input, headers }: { input: ChangePasswordInput; headers: Headers }): Promise<{ signedOutOthers: boolean }> {
  if (input.newPassword === input.currentPassword) throw new AppError("bad_request", "Choose a password other than your current one.", { newPassword: "Choose a password other than your current one." });
  try {
    await auth.api.changePassword({ body: { currentPassword: input.currentPassword, newPassword: input.newPassword, revokeOtherSessions: false }, headers });
  } catch (error) {
    throw refusal(error);
  }
  if (!input.signOutOthers) return { signedOutOthers: false };
  try {
    await auth.api.revokeOtherSessions({ headers });
  } catch (error) {
    log.error("signing out other sessions failed after a password change", { error });
    throw new AppError("internal", "Your password is changed, but your other sessions could not be signed out: change it once more with “Sign out my other sessions” ticked.");
  }
  return { signedOutOthers: true };
}

function refusal(error: unknown): unknown {
  if (!isAPIError(error)) return error;
  if (error.body?.code === "INVALID_PASSWORD") return new AppError("bad_request", WRONG_CURRENT, { currentPassword: WRONG_CURRENT });
  if (error.statusCode === 401) return new AppError("unauthorized", "Your session has expired. Sign in again.");
  return expectedAuthError(error) ?? error;
}
