import { APIError } from "better-auth/api";
import type { UserRole } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { claimInvite, recordInviteUse } from "./invites";

/** open: anyone may create an account; invite: only with an invite link (SIGN_UP). */
export type SignUpMode = "open" | "invite";

export const INVITE_ONLY = "Chorus here is by invitation: ask an admin for an invite link.";
export const DEACTIVATED = "This account is deactivated. Ask an admin to reactivate it.";

/** What better-auth's database hooks are given about the request, when there is one. */
interface EndpointContext {
  body?: unknown;
  headers?: Headers;
  request?: Request;
}

/**
 * The rules better-auth's database hooks apply to every way an account or a session is made
 * (the form, the auth API): an invite's role, invite-only sign-up, and no session for a
 * deactivated account. The server's own sign-ups (create-admin, the demo seed) carry no request
 * and are not asked for an invite.
 */
export function signUpGate(prisma: Prisma, mode: SignUpMode) {
  return {
    /** The role the new account gets from its invite, claimed now; or a refusal. */
    async roleFor(user: { email: string }, context: EndpointContext | null): Promise<UserRole | undefined> {
      const token = inviteOf(context);
      if (token) return claimInvite(prisma, { token, email: user.email }).catch(rethrow);
      if (mode === "invite" && (context?.request || context?.headers)) throw refused("FORBIDDEN", INVITE_ONLY, "INVITE_REQUIRED");
      return undefined;
    },
    async accountCreated(user: { id: string; email: string }, context: EndpointContext | null): Promise<void> {
      const token = inviteOf(context);
      if (token) await recordInviteUse(prisma, { token, userId: user.id, email: user.email });
    },
    async assertActive(userId: string): Promise<void> {
      const user = await prisma.user.findUnique({ where: { id: userId }, select: { deactivatedAt: true } });
      if (user?.deactivatedAt) throw refused("FORBIDDEN", DEACTIVATED, "ACCOUNT_DEACTIVATED");
    },
  };
}

function inviteOf(context: EndpointContext | null): string | undefined {
  const invite = (context?.body as { invite?: unknown } | undefined)?.invite;
  return typeof invite === "string" && invite !== "" ? invite : undefined;
}

function refused(status: "BAD_REQUEST" | "FORBIDDEN", message: string, code: string, field?: string): APIError {
  return new APIError(status, { message, code, ...(field ? { field } : {}) });
}

/** An invite's refusal, in better-auth's terms, so its words reach the form as they are. */
function rethrow(error: unknown): never {
  if (error instanceof AppError) throw refused("BAD_REQUEST", error.message, "INVALID_INPUT", "invite");
  throw error;
}
