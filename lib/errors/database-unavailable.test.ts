import pg from "pg";
import { describe, expect, it } from "vitest";
import { PrismaClientKnownRequestError } from "@/lib/generated/prisma/internal/prismaNamespace";
import { databaseUnavailableReason } from "./database-unavailable";

const clientVersion = "7.10.1";
/** As Prisma reports the pg adapter's error for a model query, or for a raw one (P2010). */
const prismaError = (code: string, kind: string) =>
  new PrismaClientKnownRequestError("Can't reach database server at 127.0.0.1:5432", { code, clientVersion, meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind } } } });
const socketError = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:5432`), { code, errno: -111, syscall: "connect", address: "127.0.0.1", port: 5432 });
const serverError = (code: string, message: string) => Object.assign(new pg.DatabaseError(message, 0, "error"), { code, severity: "FATAL" });

describe("databaseUnavailableReason", () => {
  it("recognises what Prisma, the pg adapter and pg throw when the database cannot be reached", () => {
    expect(databaseUnavailableReason(prismaError("P1001", "DatabaseNotReachable"))).toBe("DatabaseNotReachable");
    expect(databaseUnavailableReason(prismaError("P2010", "ConnectionClosed"))).toBe("ConnectionClosed");
    const terminated = { name: "DriverAdapterError", cause: { kind: "postgres", code: "57P01", severity: "FATAL", message: "terminating connection due to administrator command" } };
    expect(databaseUnavailableReason(new PrismaClientKnownRequestError("Raw query failed.", { code: "P2010", clientVersion, meta: { driverAdapterError: terminated } }))).toBe("57P01");
    expect(databaseUnavailableReason(new PrismaClientKnownRequestError("Timed out fetching a new connection from the connection pool.", { code: "P2024", clientVersion }))).toBe("P2024");
    expect(databaseUnavailableReason(socketError("ECONNREFUSED"))).toBe("ECONNREFUSED");
    expect(databaseUnavailableReason(serverError("57P01", "terminating connection due to administrator command"))).toBe("57P01");
    expect(databaseUnavailableReason(serverError("08006", "connection failure"))).toBe("08006");
    expect(databaseUnavailableReason(new Error("Connection terminated due to connection timeout", { cause: new Error("Connection terminated unexpectedly") }))).toBe("Connection terminated due to connection timeout");
    // better-auth's failed session lookup carries the database's error as its cause.
    expect(databaseUnavailableReason(new Error("Failed to get session", { cause: prismaError("P1001", "DatabaseNotReachable") }))).toBe("DatabaseNotReachable");
  });

  it("does not take other failures for an outage", () => {
    expect(databaseUnavailableReason(prismaError("P2002", "UniqueConstraintViolation"))).toBeNull();
    expect(databaseUnavailableReason(serverError("23505", "duplicate key value violates unique constraint"))).toBeNull();
    expect(databaseUnavailableReason(new Error("boom"))).toBeNull();
    expect(databaseUnavailableReason("ECONNREFUSED")).toBeNull();
    // A model provider that is down: its client wraps the refused connect.
    expect(databaseUnavailableReason(new Error("Connection error.", { cause: new TypeError("fetch failed", { cause: socketError("ECONNREFUSED") }) }))).toBeNull();
  });
});
