import Link from "next/link";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { AgentToolsForm } from "@/components/admin/agent-tools-form";
import { listAgentTools } from "@/lib/mcp/manage-agent-tools";
import { listMcpServers } from "@/lib/mcp/manage-mcp-servers";
import { loadAdminAgent } from "../load-agent";

export default async function AgentToolsPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  // Only the records: each server is asked for its tools from the browser, so one that is down cannot hold up the page.
  const [servers, saved] = await Promise.all([listMcpServers(runtime.db.prisma, { actor: user }), listAgentTools(runtime.db.prisma, { actor: user, agentId: agent.id })]);
  const enabled = servers.filter((server) => server.enabled);
  return (
    <AdminSubpage
      crumb={agent.displayName}
      title={`${agent.displayName}'s tools`}
      intro={
        <>
          The tools of the project&apos;s MCP servers that {agent.displayName} may call while answering. With &ldquo;Ask first&rdquo;, a person approves each call before it runs.
          Servers are added on the{" "}
          <Link href="/admin/tools" className="text-link underline">
            Tools page
          </Link>
          .
        </>
      }
    >
      {enabled.length === 0 && <p className="text-sm text-muted-strong">No MCP server is enabled yet.</p>}
      {(enabled.length > 0 || saved.length > 0) && (
        <AgentToolsForm
          agentId={agent.id}
          agentName={agent.displayName}
          servers={enabled}
          saved={saved}
          onDisabledServers={saved.filter((tool) => !enabled.some((server) => server.id === tool.serverId))}
        />
      )}
    </AdminSubpage>
  );
}
