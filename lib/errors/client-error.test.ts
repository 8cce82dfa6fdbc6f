import { afterEach, describe, expect, it, vi } from "vitest";
import { PrismaClientKnownRequestError } from "@/lib/generated/prisma/internal/prismaNamespace";
import { log } from "@/lib/log/logger";
import { AppError } from "./app-error";
import { toClientError } from "./client-error";

/** As Prisma reports the pg adapter's error when PostgreSQL refuses connections. */
const unreachable = () =>
  new PrismaClientKnownRequestError("Can't reach database server at 127.0.0.1:5432", {
    code: "P1001",
    clientVersion: "7.10.1",
    meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "DatabaseNotReachable" } } },
  });

describe("toClientError", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps an AppError, turns an outage into 503 'retry' with a warning, and anything else into a logged internal error", () => {
    const warn = vi.spyOn(log, "warn").mockImplementation(() => undefined);
    const error = vi.spyOn(log, "error").mockImplementation(() => undefined);
    const refused = new AppError("forbidden", "No.");
    expect(toClientError(refused, "route failed", { route: "x" })).toBe(refused);

    const outage = toClientError(unreachable(), "route failed", { route: "list-conversations" });
    expect(outage).toMatchObject({ code: "unavailable", status: 503, message: "Database unavailable, retry in 5 seconds." });
    expect(warn).toHaveBeenCalledWith("route failed: database unavailable", { route: "list-conversations", reason: "DatabaseNotReachable" });

    const cause = new TypeError("x is undefined");
    expect(toClientError(cause, "action failed", { action: "post-message" })).toMatchObject({ code: "internal", status: 500, message: "Something went wrong on our side. Please try again." });
    expect(error).toHaveBeenCalledWith("action failed", { action: "post-message", error: cause });
  });
});
