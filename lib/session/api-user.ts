import "server-only";
import { authenticateApiToken } from "@/lib/api-tokens/authenticate-api-token";
import { getSessionUser, type SessionUser } from "@/lib/auth/session-user";
import { AppError } from "@/lib/errors/app-error";
import { isAllowedOrigin, requestOrigin } from "@/lib/http/client-request";
import { getRuntime, type Runtime } from "@/lib/runtime/runtime";

/**
 * For route handlers: the runtime and the user, from a personal API token
 * (`Authorization: Bearer chorus_…`) or the session cookie, or an `unauthorized` AppError.
 * A change made with the cookie must come from Chorus's own pages (same origin): another site
 * cannot make a signed-in browser post.
 */
export async function requireApiUser(request: Request, { change = false }: { change?: boolean } = {}): Promise<{ runtime: Runtime; user: SessionUser }> {
  const runtime = await getRuntime();
  const bearer = /^Bearer\s+(\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
  if (bearer) return { runtime, user: await authenticateApiToken(runtime.db.prisma, bearer) };
  const user = await getSessionUser(runtime.auth, request.headers);
  if (!user) throw new AppError("unauthorized", "Your session has expired. Sign in again, or send a personal API token as Authorization: Bearer.");
  const origin = request.headers.get("origin") ?? undefined;
  if (change && !isAllowedOrigin(origin, requestOrigin(request.headers, runtime.env.TRUST_PROXY), runtime.env.allowedOrigins)) {
    throw new AppError("forbidden", "Requests from other sites are refused. Scripts should use a personal API token.");
  }
  return { runtime, user };
}
