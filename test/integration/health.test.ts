import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkHealth } from "@/lib/runtime/health";
import { TestApp } from "../support/test-app";

describe("health", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await TestApp.start();
  });
  afterAll(() => app.close().catch(() => undefined));

  it("reports the database and realtime up with the app version", async () => {
    const health = await checkHealth(app.runtime);
    expect(health).toEqual({
      status: "ok",
      database: { status: "up", engine: app.db.engine },
      realtime: { status: "up", connections: 0 },
      redis: "unused",
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
    });
  });

  it("reports degraded with the reason when the database stops answering", async () => {
    await app.db.close();
    const health = await checkHealth(app.runtime);
    expect(health.status).toBe("degraded");
    expect(health.database).toMatchObject({ status: "down", error: expect.any(String) });
  });
});
