import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import type { Prisma } from "@/lib/db/open-database";
import { CLIENT_ADDRESS_HEADER, requestOrigin } from "@/lib/http/client-request";
import { signUpGate, type SignUpMode } from "@/lib/people/sign-up-gate";
import { authEntryHooks } from "./auth-entry-hooks";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "./password-policy";
import { uniqueUserHandle } from "./user-handle";

export const SESSION_LIFETIME_S = 60 * 60 * 24 * 30;

export interface CreateAuthOptions {
  prisma: Prisma;
  secret: string;
  /** Used for links and callbacks; request origins are trusted separately below. */
  baseURL: string;
  /** Extra origins allowed besides the request's own (APP_URL behind a proxy). */
  trustedOrigins: string[];
  /** TRUST_PROXY: how many proxies' X-Forwarded-* headers to believe. */
  trustedProxies: number;
  /** SIGN_UP: whether an account needs an invite link. */
  signUp: SignUpMode;
  /** Runs after a user row is written, e.g. to join them to the default project. */
  onUserCreated: (user: { id: string }) => Promise<void>;
  /** A session was deleted (sign-out, revocation): its live connections must end. */
  onSessionEnded: (session: { id: string; userId: string }) => void;
}

export function createAuth(options: CreateAuthOptions) {
  const gate = signUpGate(options.prisma, options.signUp);
  return betterAuth({
    database: prismaAdapter(options.prisma, { provider: "postgresql" }),
    secret: options.secret,
    baseURL: options.baseURL,
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      autoSignIn: true,
    },
    user: {
      additionalFields: {
        role: { type: "string", required: false, input: false, defaultValue: "member" },
        handle: { type: "string", required: false, input: false },
        // Changed through the settings page's own action (lib/account/update-profile), never the auth API.
        theme: { type: "string", required: false, input: false },
        timeFormat: { type: "string", required: false, input: false },
        // The avatar's colour, and its picture in the core field `image`: lib/avatars only (auth-entry-hooks refuses `image`).
        avatarColor: { type: "string", required: false, input: false },
      },
    },
    session: { expiresIn: SESSION_LIFETIME_S, updateAge: 60 * 60 * 24 },
    // Our own throttle (lib/auth/sign-in-throttle.ts) guards sign-in on every node and entry
    // point; better-auth's per-process limiter would only add a second, weaker one.
    rateLimit: { enabled: false },
    // Set by the HTTP entry point from the socket, or a trusted proxy's header (TRUST_PROXY).
    advanced: { ipAddress: { ipAddressHeaders: [CLIENT_ADDRESS_HEADER] } },
    // The app is reachable on whatever host:port it was started on; trust the request's own origin.
    trustedOrigins: (request) => [...options.trustedOrigins, request ? requestOrigin(request.headers, options.trustedProxies) : undefined],
    hooks: authEntryHooks(options.prisma),
    databaseHooks: {
      user: {
        create: {
          // Two sign-ups with the same name at the same moment may pick the same handle; the
          // unique index then refuses the second, which can simply try again.
          before: async (user, context) => {
            const role = await gate.roleFor(user, context);
            return { data: { ...user, handle: await uniqueUserHandle(options.prisma, user.name), ...(role ? { role } : {}) } };
          },
          after: async (user, context) => {
            await gate.accountCreated(user, context);
            await options.onUserCreated(user);
          },
        },
      },
      session: {
        // Every sign-in path ends here: a deactivated account gets no session.
        create: { before: async (session) => gate.assertActive(session.userId) },
        delete: { after: async (session) => options.onSessionEnded({ id: session.id, userId: session.userId }) },
      },
    },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
