import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createAdmin } from "@/lib/auth/create-admin";
import { getSessionUser } from "@/lib/auth/session-user";
import { readEnv } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { listConversations } from "@/lib/conversations/list-conversations";
import { log } from "@/lib/log/logger";
import { closeRuntime, initRuntime } from "@/lib/runtime/runtime";
import { DEMO_PASSWORD, demoUsers } from "@/lib/seed/demo-data";
import { FIRST_ADMIN_HINT, wantsDemoSeed } from "@/lib/seed/prepare-first-start";
import { createTestDatabase } from "../support/test-database";

const production = (extra: Record<string, string> = {}) => readEnv({ NODE_ENV: "production", AUTH_SECRET: "p".repeat(32), DATA_DIR: "/nonexistent", PORT: "0", ...extra });

/** Starting on an empty database: the demo accounts (published password) only where asked for, and a way to the first admin. */
describe("first start", () => {
  afterEach(async () => {
    vi.restoreAllMocks();
    await closeRuntime();
  });

  /** A runtime as server.ts assembles it, on a fresh migrated database; closeRuntime closes both. */
  const start = async (env = production()) => {
    const warnings = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const db: Database = await createTestDatabase();
    const runtime = await initRuntime(env, db);
    return { db, runtime, warnings };
  };

  const signInCookie = async (auth: Awaited<ReturnType<typeof start>>["runtime"]["auth"], email: string, password: string) => {
    const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
    expect(response.status).toBe(200);
    return response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ");
  };

  it("seeds the demo accounts in development on the embedded database, or when SEED_DEMO says so", () => {
    expect(wantsDemoSeed({ NODE_ENV: "development", SEED_DEMO: undefined }, "pglite")).toBe(true);
    expect(wantsDemoSeed({ NODE_ENV: "development", SEED_DEMO: undefined }, "postgres")).toBe(false);
    expect(wantsDemoSeed({ NODE_ENV: "development", SEED_DEMO: false }, "pglite")).toBe(false);
    expect(wantsDemoSeed({ NODE_ENV: "production", SEED_DEMO: undefined }, "pglite")).toBe(false);
    expect(wantsDemoSeed({ NODE_ENV: "production", SEED_DEMO: true }, "postgres")).toBe(true);
    expect(readEnv({ NODE_ENV: "test", SEED_DEMO: "1" }).SEED_DEMO).toBe(true);
    expect(readEnv({ NODE_ENV: "test", SEED_DEMO: "false" }).SEED_DEMO).toBe(false);
    expect(() => readEnv({ NODE_ENV: "test", SEED_DEMO: "yes" })).toThrow("SEED_DEMO: use 1/true or 0/false");
  });

  it("a production start on an empty database seeds nothing and says how to create the first admin, who then can sign in", async () => {
    const { db, runtime, warnings } = await start();

    expect(await db.prisma.user.count()).toBe(0);
    expect(await db.prisma.project.count()).toBe(0);
    expect(warnings).toHaveBeenCalledWith(FIRST_ADMIN_HINT);
    expect(FIRST_ADMIN_HINT).toMatch(/CHORUS_ADMIN_PASSWORD='…' npm run create-admin -- --email you@example.com --name "Your Name"/);

    const admin = await createAdmin({ prisma: db.prisma, auth: runtime.auth }, { email: "Owner@Example.test", name: "Olive Owner", password: "first-admin-1" });

    expect(admin).toMatchObject({ email: "owner@example.test", project: { name: "Chorus", created: true } });
    const row = await db.prisma.user.findUniqueOrThrow({ where: { id: admin.id }, include: { memberships: true } });
    expect(row).toMatchObject({ role: "admin", memberships: [{ role: "owner" }] });
    const account = await db.prisma.account.findFirstOrThrow({ where: { userId: admin.id } });
    expect(account.password).not.toContain("first-admin-1");
    // Signed in through the auth API like the form, the admin lands in #general.
    const cookie = await signInCookie(runtime.auth, "owner@example.test", "first-admin-1");
    expect(await getSessionUser(runtime.auth, new Headers({ cookie }))).toMatchObject({ id: admin.id, role: "admin" });
    expect((await listConversations(db.prisma, { userId: admin.id })).map((conversation) => conversation.title)).toEqual(["general"]);

    // A second admin joins that project; the same email again changes nothing.
    const second = await createAdmin({ prisma: db.prisma, auth: runtime.auth }, { email: "second@example.test", name: "Sam", password: "second-admin-2" });
    expect(second.project).toEqual({ name: "Chorus", created: false });
    await expect(createAdmin({ prisma: db.prisma, auth: runtime.auth }, { email: "OWNER@example.test", name: "Impostor", password: "other-pass-3" })).rejects.toMatchObject({
      code: "conflict",
      message: "An account with owner@example.test already exists (already an admin); nothing was changed. Use another email.",
    });
    expect(await db.prisma.user.count()).toBe(2);
  });

  it("create-admin refuses what sign-up refuses, with the field and the reason", async () => {
    const { db, runtime } = await start();
    const create = (input: { email?: string; name?: string; password?: string }) => createAdmin({ prisma: db.prisma, auth: runtime.auth }, input);

    await expect(create({ email: "a@example.test", name: "A", password: "password" })).rejects.toMatchObject({ code: "bad_request", message: "Password: Too weak: mix letters with at least one number or symbol." });
    await expect(create({ email: "a@example.test", name: "A", password: "x1" })).rejects.toThrow(/^Password: Use at least 8 characters\./);
    await expect(create({ email: "not-an-email", name: "A", password: "good-pass-1" })).rejects.toThrow("Email: Enter a valid email address, like name@example.com.");
    await expect(create({ email: "a@example.test", password: "good-pass-1" })).rejects.toThrow("Name: Tell us your name.");
    expect(await db.prisma.user.count()).toBe(0);
    expect(await db.prisma.project.count()).toBe(0);
  });

  it("SEED_DEMO=1 seeds the demo accounts in production too", async () => {
    const { db, runtime, warnings } = await start(production({ SEED_DEMO: "1" }));

    expect(await db.prisma.user.count()).toBe(demoUsers.length);
    expect(warnings).not.toHaveBeenCalledWith(FIRST_ADMIN_HINT);
    const cookie = await signInCookie(runtime.auth, "admin@chorus.local", DEMO_PASSWORD);
    expect(await getSessionUser(runtime.auth, new Headers({ cookie }))).toMatchObject({ email: "admin@chorus.local", role: "admin" });
  });

  it("npm run create-admin: the password from CHORUS_ADMIN_PASSWORD, exit 0; the same email again, exit 1 with the reason", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "chorus-create-admin-"));
    try {
      const args = ["--email", "boss@example.test", "--name", "The Boss"];
      const created = await runCreateAdmin(args, { DATA_DIR: dataDir, CHORUS_ADMIN_PASSWORD: "boss-pass-1" });
      expect(created).toMatchObject({ code: 0, stdout: expect.stringContaining('Admin boss@example.test created, owner of the new project "Chorus" (with #general).') });

      const again = await runCreateAdmin(args, { DATA_DIR: dataDir, CHORUS_ADMIN_PASSWORD: "boss-pass-1" });
      expect(again).toMatchObject({ code: 1, stderr: "An account with boss@example.test already exists (already an admin); nothing was changed. Use another email." });

      const flag = await runCreateAdmin([...args, "--password", "boss-pass-1"], { DATA_DIR: dataDir });
      expect(flag.code).toBe(1);
      expect(flag.stderr).toMatch(/^The password is never a flag/);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

function runCreateAdmin(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/create-admin.ts", ...args], {
      env: { ...process.env, NODE_ENV: "production", DATABASE_URL: "", CHORUS_ADMIN_PASSWORD: "", LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("exit", (code) => resolve({ code, stdout: stdout.trim(), stderr: stderr.trim() }));
  });
}
