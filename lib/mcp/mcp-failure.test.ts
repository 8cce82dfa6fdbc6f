import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors/app-error";
import { McpFailure, rebuildAppError } from "./mcp-failure";

describe("MCP failures across module graphs", () => {
  it("rebuilds an AppError of another module instance by its code and message", () => {
    // What the route sees of the pool's McpFailure: same shape, another class.
    const foreign = Object.assign(new Error("MCP server notes refused the connection (is it running, on that port?)."), { name: "McpFailure", code: "unavailable" });
    const rebuilt = rebuildAppError(foreign);
    expect(rebuilt).toBeInstanceOf(AppError);
    expect(rebuilt).toMatchObject({ code: "unavailable", status: 503, message: foreign.message });
  });

  it("leaves this instance's errors and anything else as they are", () => {
    const own = new McpFailure("timeout", "notes", "did not answer within 10 s");
    expect(own.message).toBe("MCP server notes did not answer within 10 s.");
    expect(rebuildAppError(own)).toBe(own);
    const bug = new TypeError("x is undefined");
    expect(rebuildAppError(bug)).toBe(bug);
    const odd = Object.assign(new Error("?"), { name: "AppError", code: "teapot" });
    expect(rebuildAppError(odd)).toBe(odd);
  });
});
