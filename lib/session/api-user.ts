import "server-only";
import { authenticateApiToken } from "@/lib/api-tokens/authenticate-api-token";
import { getSessionUser, type SessionUser } from "@/lib/auth/session-user";
import { AppError } from "@/lib/errors/app-error";
import { getRuntime, type Runtime } from "@/lib/runtime/runtime";

/**
 * For route handlers: the runtime and the user, from a personal API token
 * (`Authorization: Bearer chorus_…`) or the session cookie, or an `unauthorized` AppError.
 * Changes made with the cookie from another site never get here: the HTTP entry refuses them
 * (lib/http/cross-site.ts).
 */
export async function requireApiUser(request: Request): Promise<{ runtime: Runtime; user: SessionUser }> {
  const runtime = await getRuntime();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (bearer) return { runtime, user: await authenticateApiToken(runtime.db.prisma, bearer) };
  const user = await getSessionUser(runtime.auth, request.headers);
  if (!user) throw new AppError("unauthorized", "Your session has expired. Sign in again, or send a personal API token as Authorization: Bearer.");
  return { runtime, user };
}
