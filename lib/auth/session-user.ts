import { preferencesOf, type Preferences } from "@/lib/account/preferences";
import { avatarOf, type PersonAvatar } from "@/lib/avatars/avatar-rules";
import type { Auth } from "./create-auth";

export type UserRole = "member" | "admin" | "debug";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: UserRole;
}

/** A signed-in user and the session that proves it (live connections end with it). */
export interface UserSession {
  user: SessionUser;
  session: { id: string; expiresAt: number };
  preferences: Preferences;
  avatar: PersonAvatar;
}

const roles: readonly UserRole[] = ["member", "admin", "debug"];

/** The session for these request headers (cookie), or null. */
export async function getUserSession(auth: Auth, headers: Headers): Promise<UserSession | null> {
  const found = await auth.api.getSession({ headers });
  if (!found) return null;
  const { id, name, email } = found.user;
  const role = roles.find((candidate) => candidate === (found.user as { role?: unknown }).role) ?? "member";
  return {
    user: { id, name, email, role },
    session: { id: found.session.id, expiresAt: new Date(found.session.expiresAt).getTime() },
    preferences: preferencesOf(found.user as { theme?: unknown; timeFormat?: unknown }),
    avatar: avatarOf({ id, image: found.user.image ?? null, avatarColor: (found.user as { avatarColor?: string | null }).avatarColor ?? null }),
  };
}

/** The signed-in user for these request headers (cookie), or null. */
export async function getSessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  return (await getUserSession(auth, headers))?.user ?? null;
}
