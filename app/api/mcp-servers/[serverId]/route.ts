import { assertAdmin } from "@/lib/auth/assert-admin";
import { jsonResponse, readJsonBody } from "@/lib/http/json-response";
import { checkMcpServer, deleteMcpServer } from "@/lib/mcp/manage-mcp-servers";
import { parseInput, SERVER_FIELDS, serverChangesSchema } from "@/lib/mcp/mcp-server-input";
import { updateMcpServer } from "@/lib/mcp/save-mcp-server";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ serverId: string }> };

/**
 * Changes a server: `{"name"?, "url"?, "command"?, "args"?, "enabled"?, "headers"?, "env"?}`;
 * in headers and env a value sets that name and null removes it, others keep theirs. Reconnects
 * and answers with its status (admins).
 */
export async function PATCH(request: Request, { params }: Params) {
  return jsonResponse("change-mcp-server", async () => {
    const { runtime, user } = await requireApiUser(request);
    assertAdmin(user);
    const { serverId } = await params;
    const changes = parseInput(serverChangesSchema, await readJsonBody(request, '{"url": "https://mcp.example.com/mcp", "headers": {"authorization": "Bearer …"}}'), SERVER_FIELDS);
    await updateMcpServer({ prisma: runtime.db.prisma, secrets: runtime.secrets }, { actor: user, serverId, changes });
    await runtime.mcp.forget(serverId);
    return checkMcpServer(runtime.db.prisma, runtime.mcp, { actor: user, serverId });
  });
}

/** Deletes a server and every agent's tools of it; its connection closes (admins). */
export async function DELETE(request: Request, { params }: Params) {
  return jsonResponse("delete-mcp-server", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { serverId } = await params;
    await deleteMcpServer(runtime.db.prisma, { actor: user, serverId });
    await runtime.mcp.forget(serverId);
    return null;
  });
}
