import { assertAdmin } from "@/lib/auth/assert-admin";
import { jsonResponse, readJsonBody, WithStatus } from "@/lib/http/json-response";
import { checkMcpServer, listMcpServers } from "@/lib/mcp/manage-mcp-servers";
import { newServerSchema, parseInput, SERVER_FIELDS } from "@/lib/mcp/mcp-server-input";
import { createMcpServer } from "@/lib/mcp/save-mcp-server";
import { requireApiUser } from "@/lib/session/api-user";

/** The project's MCP servers with their last status; header and environment values are never shown (admins). */
export async function GET(request: Request) {
  return jsonResponse("list-mcp-servers", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listMcpServers(runtime.db.prisma, { actor: user });
  });
}

/** Adds a server (`{transport: "http", name, url, headers?}` or `{transport: "stdio", name, command, args?, env?}`), then tries it: 201 with its status (admins). */
export async function POST(request: Request) {
  return jsonResponse("add-mcp-server", async () => {
    const { runtime, user } = await requireApiUser(request);
    // Before the body is read: a stdio command is a program this node would run.
    assertAdmin(user);
    const server = parseInput(newServerSchema, await readJsonBody(request, '{"transport": "http", "name": "notes", "url": "https://mcp.example.com/mcp"}'), SERVER_FIELDS);
    const created = await createMcpServer({ prisma: runtime.db.prisma, secrets: runtime.secrets }, { actor: user, server });
    return new WithStatus(await checkMcpServer(runtime.db.prisma, runtime.mcp, { actor: user, serverId: created.id }), 201);
  });
}
