import type { OfferedTool } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { McpFailure } from "./mcp-failure";
import type { McpPool } from "./mcp-pool";

/** A tool a turn may offer, with where it lives: the model calls it by `name` (`server__tool`). */
export interface TurnTool extends OfferedTool {
  serverId: string;
  /** Its name on its server. */
  toolName: string;
}

/** A server whose tools this turn cannot offer, and why (said to the people, never waited on). */
export interface UnavailableServer {
  server: string;
  reason: string;
}

/** How the model names a server's tool: unique across servers, within OpenAI's 64 characters (server names are 1–32). */
export const modelToolName = (server: string, tool: string) => `${server}__${tool}`.slice(0, 64);

/**
 * The MCP tools an agent has, as a turn offers them: each enabled server's tools the admin turned
 * on for the agent, described and typed as the server lists them now. A server that is down (or
 * no longer lists a tool) leaves those tools out with the reason, within the pool's timeout; the
 * turn goes on with the rest.
 */
export async function toolsForTurn(prisma: Prisma, pool: McpPool, { agentId, signal }: { agentId: string; signal?: AbortSignal }): Promise<{ tools: TurnTool[]; unavailable: UnavailableServer[] }> {
  const rows = await prisma.agentTool.findMany({
    where: { agentId, server: { enabled: true } },
    orderBy: [{ server: { name: "asc" } }, { toolName: "asc" }],
    select: { serverId: true, toolName: true, askFirst: true, server: { select: { name: true } } },
  });
  const byServer = new Map<string, typeof rows>();
  for (const row of rows) byServer.set(row.serverId, [...(byServer.get(row.serverId) ?? []), row]);
  const tools: TurnTool[] = [];
  const unavailable: UnavailableServer[] = [];
  await Promise.all(
    [...byServer].map(async ([serverId, chosen]) => {
      const server = chosen[0]!.server.name;
      try {
        const listed = new Map((await pool.toolsOf(serverId, { signal })).map((tool) => [tool.name, tool]));
        const gone = chosen.filter((row) => !listed.has(row.toolName)).map((row) => row.toolName);
        if (gone.length > 0) unavailable.push({ server, reason: `no longer lists ${gone.join(", ")}` });
        for (const row of chosen) {
          const tool = listed.get(row.toolName);
          if (!tool) continue;
          tools.push({ serverId, server, toolName: tool.name, name: modelToolName(server, tool.name), askFirst: row.askFirst, description: tool.description ?? tool.title ?? tool.name, parameters: tool.inputSchema });
        }
      } catch (error) {
        if (!(error instanceof McpFailure)) throw error;
        log.warn("MCP tools unavailable for a turn", { agentId, server, reason: error.reason });
        unavailable.push({ server, reason: error.reason });
      }
    }),
  );
  // Servers answer in any order; the model is offered the same list each time.
  tools.sort((a, b) => a.name.localeCompare(b.name));
  return { tools, unavailable };
}
