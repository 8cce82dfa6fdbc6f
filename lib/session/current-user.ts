import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getSessionUser, type SessionUser } from "@/lib/auth/session-user";
import { getRuntime } from "@/lib/runtime/runtime";

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
