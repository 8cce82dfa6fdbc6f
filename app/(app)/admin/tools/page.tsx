import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { McpServerForm } from "@/components/admin/mcp-server-form";
import { McpServerList } from "@/components/admin/mcp-server-list";
import { listMcpServers } from "@/lib/mcp/manage-mcp-servers";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";

export default async function ToolsPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db } = await getRuntime();
  // The last recorded status of each: listing connects to none, so the page never waits for a server.
  const servers = await listMcpServers(db.prisma, { actor: user });
  return (
    <AdminSubpage
      crumb="Tools"
      title="Tools"
      intro={
        <>
          MCP servers give agents tools: connect one here, then choose which of its tools each agent may use (an agent&apos;s Tools page). Header and environment values are
          stored encrypted and never shown again.
        </>
      }
    >
      <McpServerList servers={servers} />
      <section aria-labelledby="add-server" className="rounded-lg border border-slate-200 p-3 dark:border-slate-800">
        <h2 id="add-server" className="mb-2 text-lg font-semibold">
          Add server
        </h2>
        <McpServerForm />
      </section>
    </AdminSubpage>
  );
}
