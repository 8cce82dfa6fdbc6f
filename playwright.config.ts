import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { chromiumLaunchOptions } from "./e2e/chromium-launch";

const launchOptions = chromiumLaunchOptions();

const port = Number(process.env.E2E_PORT ?? 3210);
const baseURL = `http://127.0.0.1:${port}`;
// A fresh embedded database for every run; the server command wipes it before starting.
const dataDir = path.join(tmpdir(), `chorus-e2e-${port}`);
// E2E_DEV=1 runs against the dev server (hot reload) instead of the production build.
const serve = process.env.E2E_DEV ? "tsx server.ts" : "next build && NODE_ENV=production tsx server.ts";

if (process.env.DATABASE_URL) {
  throw new Error("e2e tests run on their own embedded database; unset DATABASE_URL so they cannot touch a real one.");
}

export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions,
  },
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], launchOptions } }],
  webServer: {
    command: `rm -rf "${dataDir}" && ${serve}`,
    url: `${baseURL}/api/health`,
    timeout: 240_000,
    // E2E_REUSE=1 runs against a server already listening on the port (iterating on a spec).
    reuseExistingServer: Boolean(process.env.E2E_REUSE),
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      NEXT_TELEMETRY_DISABLED: "1",
      AUTH_SECRET: "e2e-secret-e2e-secret-e2e-secret-e2e",
      // The specs sign in as the demo accounts, which a production start seeds only when asked.
      SEED_DEMO: "1",
      // Agents' offline replies stream slowly enough to see them at work and to stop them.
      OFFLINE_MODEL_DELAY_MS: "60",
    },
  },
});
