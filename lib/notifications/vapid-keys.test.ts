import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readEnv } from "@/lib/config/env";
import { vapidKeys } from "./vapid-keys";

const envOf = (vars: Record<string, string>) => readEnv({ NODE_ENV: "development", ...vars });

describe("vapidKeys", () => {
  const dirs: string[] = [];
  const dataDir = () => {
    const dir = mkdtempSync(path.join(tmpdir(), "chorus-vapid-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it("takes the keys and the subject from the environment", () => {
    const env = envOf({ VAPID_PUBLIC_KEY: "public", VAPID_PRIVATE_KEY: "private", VAPID_SUBJECT: "mailto:ops@example.com", DATA_DIR: dataDir() });
    expect(vapidKeys(env)).toEqual({ publicKey: "public", privateKey: "private", subject: "mailto:ops@example.com" });
  });

  it("generates a pair once in the data directory when unset, and keeps it across restarts", () => {
    const env = envOf({ DATA_DIR: dataDir(), APP_URL: "https://chat.example.com" });
    const first = vapidKeys(env);
    expect(first).toMatchObject({ publicKey: expect.stringMatching(/^[\w-]{87}$/), subject: "https://chat.example.com" });
    expect(vapidKeys(env)).toEqual(first);
  });

  it("turns push off in production with a shared database when the keys are unset, and refuses half a pair", () => {
    expect(vapidKeys(envOf({ NODE_ENV: "production", DATABASE_URL: "postgres://db.example.com/chorus", DATA_DIR: dataDir() }))).toBeNull();
    expect(() => vapidKeys(envOf({ VAPID_PUBLIC_KEY: "public", DATA_DIR: dataDir() }))).toThrow(/VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY: set both/);
    expect(() => envOf({ VAPID_SUBJECT: "admin@example.com" })).toThrow(/VAPID_SUBJECT: use a mailto: or https:\/\/ address/);
  });
});
