import "server-only";
import { adminProject } from "@/lib/agents/manage-agents";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import type { AgentToolsInput } from "./mcp-server-input";
import { fromPool } from "./mcp-failure";
import type { McpPool } from "./mcp-pool";

/** A tool an agent may call: which server, its name there, and whether a person approves each call first. */
export interface AgentToolView {
  serverId: string;
  serverName: string;
  name: string;
  askFirst: boolean;
}

const MAX_NAMES_SHOWN = 20;

/** The agent's enabled tools, by server and name. */
export async function listAgentTools(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<AgentToolView[]> {
  await agentOfProject(prisma, actor, agentId);
  const rows = await prisma.agentTool.findMany({
    where: { agentId },
    orderBy: [{ server: { name: "asc" } }, { toolName: "asc" }],
    select: { serverId: true, toolName: true, askFirst: true, server: { select: { name: true } } },
  });
  return rows.map((row) => ({ serverId: row.serverId, serverName: row.server.name, name: row.toolName, askFirst: row.askFirst }));
}

/**
 * Replaces the agent's whole set of tools (an empty list turns them all off). Every tool it did not
 * have must be on its server's list as the server gives it now, so that server is asked (one that
 * is down is 503 with the reason; a turned-off one 409; nothing changes); tools it keeps are not
 * asked about again, so a server that is down never blocks changing the others. One transaction:
 * a repeated request changes nothing more.
 */
export async function setAgentTools(prisma: Prisma, pool: McpPool, { actor, agentId, tools }: { actor: SessionUser; agentId: string } & AgentToolsInput): Promise<AgentToolView[]> {
  const projectId = await agentOfProject(prisma, actor, agentId);
  const byServer = groupByServer(tools);
  const servers = await prisma.mcpServer.findMany({ where: { id: { in: [...byServer.keys()] }, projectId }, select: { id: true, name: true, enabled: true } });
  const missing = [...byServer.keys()].filter((id) => !servers.some((server) => server.id === id));
  if (missing.length > 0) throw new AppError("bad_request", `No MCP server with id ${missing.join(", ")} in your project.`);
  const kept = new Set((await prisma.agentTool.findMany({ where: { agentId }, select: { serverId: true, toolName: true } })).map((row) => `${row.serverId}\n${row.toolName}`));
  for (const [serverId, names] of byServer) for (const name of names) if (kept.has(`${serverId}\n${name}`)) names.delete(name);
  for (const server of servers.filter((each) => byServer.get(each.id)!.size > 0)) {
    if (!server.enabled) throw new AppError("conflict", `MCP server ${server.name} is turned off: turn it on before choosing its tools.`);
    const listed = new Set((await fromPool(pool.toolsOf(server.id, { refresh: true }))).map((tool) => tool.name));
    const unknown = [...byServer.get(server.id)!].filter((name) => !listed.has(name));
    if (unknown.length > 0) throw new AppError("bad_request", `MCP server ${server.name} has no tool named ${unknown.join(", ")}. It lists: ${shortList([...listed])}.`);
  }
  await prisma.$transaction([
    prisma.agentTool.deleteMany({ where: { agentId, NOT: { OR: tools.map((tool) => ({ serverId: tool.serverId, toolName: tool.name })) } } }),
    ...tools.map((tool) =>
      prisma.agentTool.upsert({
        where: { agentId_serverId_toolName: { agentId, serverId: tool.serverId, toolName: tool.name } },
        create: { agentId, serverId: tool.serverId, toolName: tool.name, askFirst: tool.askFirst },
        update: { askFirst: tool.askFirst },
      }),
    ),
  ]);
  log.info("agent tools set", { agentId, tools: tools.length, askFirst: tools.filter((tool) => tool.askFirst).length, by: actor.id });
  return listAgentTools(prisma, { actor, agentId });
}

async function agentOfProject(prisma: Prisma, actor: SessionUser, agentId: string): Promise<string> {
  const projectId = await adminProject(prisma, actor);
  const agent = await prisma.agent.findFirst({ where: { id: agentId, projectId }, select: { id: true } });
  if (!agent) throw new AppError("not_found", "That agent does not exist in your project.");
  return projectId;
}

/** Tool names by server id; a tool listed twice is a mistake worth saying (which askFirst was meant?). */
function groupByServer(tools: AgentToolsInput["tools"]): Map<string, Set<string>> {
  const byServer = new Map<string, Set<string>>();
  for (const tool of tools) {
    const names = byServer.get(tool.serverId) ?? new Set<string>();
    if (names.has(tool.name)) throw new AppError("bad_request", `The tool ${tool.name} is listed twice for the same server; list each tool once.`);
    byServer.set(tool.serverId, names.add(tool.name));
  }
  return byServer;
}

const shortList = (names: string[]) =>
  names.length === 0 ? "no tools" : names.length > MAX_NAMES_SHOWN ? `${names.slice(0, MAX_NAMES_SHOWN).join(", ")} and ${names.length - MAX_NAMES_SHOWN} more` : names.join(", ");
