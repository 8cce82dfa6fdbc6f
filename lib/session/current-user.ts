import "server-only";
import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { DEFAULT_PREFERENCES, type Preferences } from "@/lib/account/preferences";
import type { PersonAvatar } from "@/lib/avatars/avatar-rules";
import { getUserSession, type SessionUser, type UserSession } from "@/lib/auth/session-user";
import { getRuntime } from "@/lib/runtime/runtime";

/** Read once per request, however many layouts and pages ask (React's cache lives for one render). */
const currentSession = cache(async (): Promise<UserSession | null> => {
  // headers() first: it marks the page dynamic before the build would open the database.
  const requestHeaders = await headers();
  const runtime = await getRuntime();
  return getUserSession(runtime.auth, requestHeaders);
});

export async function getCurrentUser(): Promise<SessionUser | null> {
  return (await currentSession())?.user ?? null;
}

/** The signed-in person's preferences; a visitor's are the defaults. */
export async function getCurrentPreferences(): Promise<Preferences> {
  return (await currentSession())?.preferences ?? DEFAULT_PREFERENCES;
}

/** How the signed-in person looks beside their name (the sidebar's menu, settings). */
export async function getCurrentAvatar(): Promise<PersonAvatar> {
  return (await currentSession())?.avatar ?? { color: null, avatarUrl: null };
}

/** For signed-in pages: a visitor without a session goes to the sign-in page. */
export async function requireCurrentUser(): Promise<SessionUser> {
  const user = await getCurrentUser();
  if (!user) redirect("/sign-in");
  return user;
}
