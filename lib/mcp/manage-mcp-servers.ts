import "server-only";
import { adminProject } from "@/lib/agents/manage-agents";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import type { McpTool } from "./mcp-connection";
import { fromPool } from "./mcp-failure";
import type { McpPool } from "./mcp-pool";
import { serverViewColumns, toServerView, type McpServerView } from "./mcp-server-view";

export const serverNotFound = () => new AppError("not_found", "That MCP server does not exist in your project (it may have been deleted).");

/** The project's MCP servers by name, with their last recorded status (listing connects to none). */
export async function listMcpServers(prisma: Prisma, { actor }: { actor: SessionUser }): Promise<McpServerView[]> {
  const projectId = await adminProject(prisma, actor);
  const rows = await prisma.mcpServer.findMany({ where: { projectId }, orderBy: { name: "asc" }, select: serverViewColumns });
  return rows.map(toServerView);
}

/** One server of the admin's project (404 for another project's, as for one that does not exist). */
export async function getMcpServer(prisma: Prisma, { actor, serverId }: { actor: SessionUser; serverId: string }): Promise<McpServerView> {
  const projectId = await adminProject(prisma, actor);
  const row = await prisma.mcpServer.findFirst({ where: { id: serverId, projectId }, select: serverViewColumns });
  if (!row) throw serverNotFound();
  return toServerView(row);
}

/** Deletes a server; every agent loses its tools with it (the rows cascade). The caller closes this node's connection. */
export async function deleteMcpServer(prisma: Prisma, { actor, serverId }: { actor: SessionUser; serverId: string }): Promise<void> {
  const projectId = await adminProject(prisma, actor);
  const { count } = await prisma.mcpServer.deleteMany({ where: { id: serverId, projectId } });
  if (count === 0) throw serverNotFound();
  log.info("MCP server deleted", { serverId, by: actor.id });
}

/**
 * Connects (or lists again on the open connection) so the answer shows the server's status now;
 * a failure is not an error here: its reason is in the status.
 */
export async function checkMcpServer(prisma: Prisma, pool: McpPool, { actor, serverId }: { actor: SessionUser; serverId: string }): Promise<McpServerView> {
  await pool.toolsOf(serverId, { refresh: true }).catch(() => {});
  return getMcpServer(prisma, { actor, serverId });
}

/** The server's tools as it lists them now, with its status after asking. */
export async function listMcpServerTools(prisma: Prisma, pool: McpPool, { actor, serverId }: { actor: SessionUser; serverId: string }): Promise<{ server: McpServerView; tools: McpTool[] }> {
  await getMcpServer(prisma, { actor, serverId });
  const tools = await fromPool(pool.toolsOf(serverId, { refresh: true }));
  return { server: await getMcpServer(prisma, { actor, serverId }), tools };
}
