import { jsonResponse } from "@/lib/http/json-response";
import { listMcpServerTools } from "@/lib/mcp/manage-mcp-servers";
import { requireApiUser } from "@/lib/session/api-user";

/** The server's tools as it lists them now (every page), with its status; 503 with the reason when it cannot be reached (admins). */
export async function GET(request: Request, { params }: { params: Promise<{ serverId: string }> }) {
  return jsonResponse("list-mcp-server-tools", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listMcpServerTools(runtime.db.prisma, runtime.mcp, { actor: user, serverId: (await params).serverId });
  });
}
