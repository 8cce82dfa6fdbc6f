import type { Auth } from "./create-auth";

export type UserRole = "member" | "admin" | "debug";

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  role: UserRole;
}

const roles: readonly UserRole[] = ["member", "admin", "debug"];

/** The signed-in user for these request headers (cookie), or null. */
export async function getSessionUser(auth: Auth, headers: Headers): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers });
  if (!session) return null;
  const { id, name, email } = session.user;
  const role = roles.find((candidate) => candidate === (session.user as { role?: unknown }).role) ?? "member";
  return { id, name, email, role };
}
