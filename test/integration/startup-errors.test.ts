import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Runs the real server.ts and returns what a person starting it would see. */
function startServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      env: { ...process.env, NODE_ENV: "development", PORT: "0", AUTH_SECRET: "x".repeat(32), ...env },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 20_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, stderr: stderr.trim() });
    });
  });
}

describe("a server that cannot reach its database", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "chorus-startup-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("exits with one line naming an unreachable DATABASE_URL, without the password", async () => {
    const { code, stderr } = await startServer({ DATABASE_URL: "postgres://chorus:hunter2@127.0.0.1:1/chorus" });
    expect(code).toBe(1);
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/^Chorus could not start: PostgreSQL at postgres:\/\/chorus:\*\*\*@127\.0\.0\.1:1\/chorus is unreachable .*Check DATABASE_URL/);
    expect(stderr).not.toContain("hunter2");
  });

  it("exits with one line when the embedded database files are corrupt", async () => {
    const dataDir = path.join(dir, "corrupt");
    await mkdir(path.join(dataDir, "pglite", "base"), { recursive: true });
    await writeFile(path.join(dataDir, "pglite", "PG_VERSION"), "not a version\n");

    const { code, stderr } = await startServer({ DATA_DIR: dataDir, DATABASE_URL: "" });

    expect(code).toBe(1);
    expect(stderr.split("\n")).toHaveLength(1);
    expect(stderr).toMatch(/could not be opened .*move the folder away to start fresh, or set DATA_DIR/);
  });

  it("exits with one line when DATA_DIR is not a usable directory", async () => {
    const file = path.join(dir, "a-file");
    await writeFile(file, "");

    const { code, stderr } = await startServer({ DATA_DIR: file, DATABASE_URL: "" });

    expect(code).toBe(1);
    expect(stderr).toMatch(/^Chorus could not start: The data directory .* is not readable and writable/);
  });
});
