import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "@/lib/auth/session-user";
import { AppError } from "@/lib/errors/app-error";
import { getRuntime, type Runtime } from "@/lib/runtime/runtime";

export async function getCurrentUser(): Promise<SessionUser | null> {
  // headers() first: it marks the page dynamic before the build would open the database.
  const requestHeaders = await headers();
  const runtime = await getRuntime();
  return getSessionUser(runtime.auth, requestHeaders);
}

/** For signed-in pages: a visitor without a session goes to the sign-in page. */
export async function requireCurrentUser(): Promise<SessionUser> {
  const user = await getCurrentUser();
  if (!user) redirect("/sign-in");
  return user;
}

/** For route handlers: the runtime and the signed-in user, or an `unauthorized` AppError. */
export async function requireApiUser(): Promise<{ runtime: Runtime; user: SessionUser }> {
  const requestHeaders = await headers();
  const runtime = await getRuntime();
  const user = await getSessionUser(runtime.auth, requestHeaders);
  if (!user) throw new AppError("unauthorized", "Your session has expired. Sign in again.");
  return { runtime, user };
}
