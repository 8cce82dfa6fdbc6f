import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { describeFailure } from "./describe-failure";

const system = (code: string, message = code) => Object.assign(new Error(message), { code });
const fetchFailed = (cause: Error) => new TypeError("fetch failed", { cause });

describe("describeFailure", () => {
  it("says what an admin can check", () => {
    const options = { timeoutMs: 10_000 };
    expect(describeFailure(new McpError(ErrorCode.RequestTimeout, "Request timed out"), options)).toBe("did not answer within 10 s");
    expect(describeFailure(new DOMException("The operation was aborted due to timeout", "TimeoutError"), { timeoutMs: 1_500 })).toBe("did not answer within 1.5 s");
    expect(describeFailure(fetchFailed(system("ECONNREFUSED")), options)).toBe("refused the connection (is it running, on that port?)");
    expect(describeFailure(fetchFailed(system("ENOTFOUND")), options)).toBe("its host name could not be resolved");
    expect(describeFailure(new StreamableHTTPError(401, "Error POSTing to endpoint: unauthorized"), options)).toBe("refused Chorus's credentials (HTTP 401): check its headers");
    expect(describeFailure(new StreamableHTTPError(404, "Error POSTing to endpoint"), options)).toBe("has no MCP endpoint at that url (HTTP 404)");
    expect(describeFailure(new StreamableHTTPError(502, "Bad gateway"), options)).toBe("answered HTTP 502");
    expect(describeFailure(fetchFailed(new Error("bad port")), options)).toBe("fetch failed (bad port)");
  });

  it("names a stdio command that cannot run, and quotes the last line the process wrote", () => {
    expect(describeFailure(system("ENOENT", "spawn notes-mcp ENOENT"), { timeoutMs: 1, command: "notes-mcp" })).toBe("the command notes-mcp was not found (is it installed, and on the PATH?)");
    expect(describeFailure(system("EACCES"), { timeoutMs: 1, command: "./notes.sh" })).toBe("the command ./notes.sh is not allowed to run (is it executable?)");
    const closed = new McpError(ErrorCode.ConnectionClosed, "Connection closed");
    expect(describeFailure(closed, { timeoutMs: 1, command: "node", stderr: "starting\nError: NOTES_DB is not set\n" })).toBe("closed the connection (the process exited); it said: Error: NOTES_DB is not set");
    expect(describeFailure(new Error("x".repeat(1_000)), { timeoutMs: 1 })).toHaveLength(300);
  });
});
