import { betterAuth } from "better-auth";
import { prismaAdapter } from "better-auth/adapters/prisma";
import { nextCookies } from "better-auth/next-js";
import type { Prisma } from "@/lib/db/open-database";
import { requestOrigin } from "@/lib/http/origin";
import { uniqueUserHandle } from "./user-handle";

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 128;

export interface CreateAuthOptions {
  prisma: Prisma;
  secret: string;
  /** Used for links and callbacks; request origins are trusted separately below. */
  baseURL: string;
  /** Extra origins allowed besides the request's own (APP_URL behind a proxy). */
  trustedOrigins: string[];
  /** Runs after a user row is written, e.g. to join them to the default project. */
  onUserCreated: (user: { id: string }) => Promise<void>;
}

export function createAuth(options: CreateAuthOptions) {
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
      },
    },
    session: { expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24 },
    // The app is reachable on whatever host:port it was started on; trust the request's own origin.
    trustedOrigins: (request) => [...options.trustedOrigins, request ? requestOrigin(request.headers) : undefined],
    databaseHooks: {
      user: {
        create: {
          // Two sign-ups with the same name at the same moment may pick the same handle; the
          // unique index then refuses the second, which can simply try again.
          before: async (user) => ({ data: { ...user, handle: await uniqueUserHandle(options.prisma, user.name) } }),
          after: async (user) => options.onUserCreated(user),
        },
      },
    },
    telemetry: { enabled: false },
    plugins: [nextCookies()],
  });
}

export type Auth = ReturnType<typeof createAuth>;
