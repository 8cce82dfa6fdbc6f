import { describe, expect, it } from "vitest";
import { agentToolsSchema, newServerSchema, parseInput, SERVER_FIELDS, serverChangesSchema } from "./mcp-server-input";

const problem = (schema: Parameters<typeof parseInput>[0], input: unknown) => {
  try {
    parseInput(schema, input, SERVER_FIELDS);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
};

describe("MCP server input", () => {
  it("accepts both transports and keeps header names lowercase", () => {
    expect(parseInput(newServerSchema, { transport: "http", name: "notes", url: " https://mcp.example.com/mcp ", headers: { Authorization: "Bearer x" } })).toEqual({
      transport: "http",
      name: "notes",
      url: "https://mcp.example.com/mcp",
      headers: { authorization: "Bearer x" },
    });
    expect(parseInput(newServerSchema, { transport: "stdio", name: "local_notes-2", command: "npx", args: ["-y", "@acme/notes"], env: { API_TOKEN: "t" } })).toMatchObject({ command: "npx", env: { API_TOKEN: "t" } });
  });

  it("refuses with what to write instead", () => {
    expect(problem(newServerSchema, { transport: "stdio", name: "notes" })).toBe("command is required for a stdio server: the program to run, like npx or /usr/local/bin/notes-mcp.");
    expect(problem(newServerSchema, { transport: "http", name: "notes" })).toBe("url is required for an http server: its Streamable HTTP endpoint, like https://mcp.example.com/mcp.");
    expect(problem(newServerSchema, { transport: "stdio", name: "n", command: "node", env: { "1BAD": "x" } })).toBe("Environment variable names are letters, digits and _, not starting with a digit (like API_TOKEN).");
    expect(problem(newServerSchema, { transport: "http", name: "n", url: "https://a.example", headers: { "bad header": "x" } })).toBe('"bad header" is not a valid header name (letters, digits and -, like authorization or x-api-key).');
    expect(problem(newServerSchema, { transport: "http", name: "n", url: "https://a.example", headers: { "x-a": "line\nbreak" } })).toMatch(/^headers\.x-a: Header values can't contain control characters \(U\+000A line feed/);
    expect(problem(newServerSchema, { transport: "stdio", name: "n", command: "node", args: "server.js" })).toBe('args must be a list of strings, like ["-y", "@acme/notes-mcp"].');
    expect(problem(serverChangesSchema, {})).toBe("Say what to change: name, url, headers, command, args, env or enabled.");
    expect(problem(serverChangesSchema, { transport: "stdio" })).toMatch(/^Unknown field: transport\./);
    expect(problem(agentToolsSchema, { tools: [{ serverId: "s" }] })).toBe("tools.0.name: Each tool needs its name, as the server lists it.");
    expect(problem(agentToolsSchema, { tools: "all" })).toMatch(/^tools must be a list/);
  });

  it("lets a change remove a secret with null", () => {
    expect(parseInput(serverChangesSchema, { headers: { "X-Old": null, authorization: "Bearer new" } })).toEqual({ headers: { "x-old": null, authorization: "Bearer new" } });
  });
});
