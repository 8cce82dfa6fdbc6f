import { assertAdmin } from "@/lib/auth/assert-admin";
import { jsonResponse, readJsonBody } from "@/lib/http/json-response";
import { listAgentTools, setAgentTools } from "@/lib/mcp/manage-agent-tools";
import { agentToolsSchema, parseInput } from "@/lib/mcp/mcp-server-input";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ agentId: string }> };

/** The MCP tools the agent may call, with their "ask first" (admins). */
export async function GET(request: Request, { params }: Params) {
  return jsonResponse("list-agent-tools", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listAgentTools(runtime.db.prisma, { actor: user, agentId: (await params).agentId });
  });
}

/** Replaces the agent's tools: `{"tools": [{"serverId", "name", "askFirst"}]}`; each must be on its server's list now (admins). */
export async function PUT(request: Request, { params }: Params) {
  return jsonResponse("set-agent-tools", async () => {
    const { runtime, user } = await requireApiUser(request);
    assertAdmin(user);
    const { tools } = parseInput(agentToolsSchema, await readJsonBody(request, '{"tools": [{"serverId": "…", "name": "search_notes", "askFirst": false}]}'));
    return setAgentTools(runtime.db.prisma, runtime.mcp, { actor: user, agentId: (await params).agentId, tools });
  });
}
