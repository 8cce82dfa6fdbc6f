/**
 * A real MCP server over stdio, started by the tests through Chorus's pool (the SDK's
 * StdioClientTransport): `node --import tsx test/support/mcp-stdio-server.ts [--fail-at-start]`.
 * Tools: whoami (its pid), read_env (a variable of its environment), exit (ends the process).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

if (process.argv.includes("--fail-at-start")) {
  // What a misconfigured server does: says why on stderr and exits.
  process.stderr.write("starting notes server\nfatal: NOTES_DB is not set\n");
  process.exit(1);
}

const server = new McpServer({ name: "test-stdio", version: "1.0.0" });
server.registerTool("whoami", { description: "The process id of this server." }, async () => ({ content: [{ type: "text", text: String(process.pid) }] }));
server.registerTool("read_env", { description: "A variable of this server's environment.", inputSchema: { name: z.string() } }, async ({ name }) => ({
  content: [{ type: "text", text: process.env[name] ?? "(unset)" }],
}));
server.registerTool("exit", { description: "Ends this server's process." }, async () => {
  setTimeout(() => process.exit(3), 10);
  return { content: [{ type: "text", text: "bye" }] };
});

await server.connect(new StdioServerTransport());
