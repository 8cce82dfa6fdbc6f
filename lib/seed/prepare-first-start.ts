import type { Auth } from "@/lib/auth/create-auth";
import type { Env } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { seedDemo } from "./seed-demo";

/** What an operator reads when Chorus starts with no accounts (README, "Production"). */
export const FIRST_ADMIN_HINT =
  "No accounts yet. Create the first admin (with Chorus stopped if it uses the embedded database): " +
  "CHORUS_ADMIN_PASSWORD='…' npm run create-admin -- --email you@example.com --name \"Your Name\" " +
  "(without CHORUS_ADMIN_PASSWORD it asks for the password). People who sign up themselves are members.";

/**
 * The demo accounts share a password printed in the README, so they exist only where that is
 * harmless: development on the embedded database, unless SEED_DEMO says otherwise either way.
 */
export function wantsDemoSeed(env: Pick<Env, "NODE_ENV" | "SEED_DEMO">, engine: Database["engine"]): boolean {
  return env.SEED_DEMO ?? (env.NODE_ENV === "development" && engine === "pglite");
}

/** At start-up: the demo data where wanted; otherwise, on a database with no accounts, how to create the first admin. */
export async function prepareFirstStart({ env, db, auth }: { env: Pick<Env, "NODE_ENV" | "SEED_DEMO" | "DATA_DIR">; db: Pick<Database, "engine" | "prisma">; auth: Auth }): Promise<void> {
  if (wantsDemoSeed(env, db.engine)) {
    await seedDemo({ prisma: db.prisma, auth, dataDir: env.DATA_DIR });
    return;
  }
  if (!(await db.prisma.user.findFirst({ select: { id: true } }))) log.warn(FIRST_ADMIN_HINT);
}
