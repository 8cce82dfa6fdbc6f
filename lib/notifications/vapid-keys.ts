import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import webpush from "web-push";
import type { Env } from "@/lib/config/env";
import { log } from "@/lib/log/logger";

/** What signs every push (VAPID): the key pair, and a contact the push services may write to. */
export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

/**
 * The VAPID keys from VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; unset, a pair generated once and
 * kept in DATA_DIR (as the auth secret is), so subscriptions survive restarts. In production
 * with DATABASE_URL several nodes must sign alike: without the variables push is off (null), said
 * once in the log.
 */
export function vapidKeys(env: Env): VapidKeys | null {
  const subject = env.VAPID_SUBJECT ?? (env.APP_URL?.startsWith("https://") ? env.APP_URL : "mailto:admin@localhost");
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = env;
  if (publicKey && privateKey) return { publicKey, privateKey, subject };
  if (publicKey || privateKey) throw new Error("Invalid configuration: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both (npx web-push generate-vapid-keys), or neither.");
  if (env.NODE_ENV === "production" && env.DATABASE_URL) {
    log.warn("Web Push is off: set VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY and VAPID_SUBJECT (the same on every node) to notify people while Chorus is closed.");
    return null;
  }
  const file = path.join(env.dataDir, "vapid-keys.json");
  if (existsSync(file)) return { ...(JSON.parse(readFileSync(file, "utf8")) as Pick<VapidKeys, "publicKey" | "privateKey">), subject };
  mkdirSync(env.dataDir, { recursive: true });
  const generated = webpush.generateVAPIDKeys();
  writeFileSync(file, JSON.stringify(generated), { mode: 0o600 });
  return { ...generated, subject };
}
