import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

export default defineConfig({
  resolve: { alias: { "@": root, "server-only": path.join(root, "test/support/server-only.ts") } },
  test: {
    env: { NODE_ENV: "test" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "components/**/*.test.{ts,tsx}", "hooks/**/*.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          globalSetup: [path.join(root, "test/support/global-setup.ts")],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
