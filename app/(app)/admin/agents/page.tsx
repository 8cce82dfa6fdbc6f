import Link from "next/link";
import { forbidden } from "next/navigation";
import { AgentCopyDelete } from "@/components/admin/agent-copy-delete";
import { AgentEnabledToggle } from "@/components/admin/agent-enabled-toggle";
import { Avatar } from "@/components/ui/avatar";
import { adminProject, listAgents } from "@/lib/agents/manage-agents";
import { listProviders, type ProviderView } from "@/lib/providers/manage-providers";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { capWarningText, projectMonthlyCaps } from "@/lib/usage/monthly-cap";
import { deleteAgentAction, duplicateAgentAction, setAgentEnabledAction } from "./actions";

function providerLabel(agent: { provider: string; providerId: string | null }, providers: ProviderView[]): string {
  if (agent.provider === "offline") return "offline model";
  if (agent.provider === "openai") return "server's endpoint";
  return providers.find((provider) => provider.id === agent.providerId)?.name ?? "provider removed";
}

/** The other admin pages, linked beside the title. */
const adminPages = [
  ["/admin/turns", "Agent turns"],
  ["/admin/panels", "Saved panels"],
  ["/admin/tools", "Tools"],
  ["/admin/providers", "Providers"],
  ["/admin/usage", "Usage"],
  ["/admin/people", "People"],
] as const;

/** Columns a phone has no room for: their facts move under the agent's name. */
const wideOnly = "hidden sm:table-cell";

export default async function AdminAgentsPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db } = await getRuntime();
  const projectId = await adminProject(db.prisma, user);
  const [agents, caps, providers] = await Promise.all([listAgents(db.prisma, { actor: user }), projectMonthlyCaps(db.prisma, projectId), listProviders(db.prisma, { projectId })]);
  return (
    <div className="mx-auto max-w-4xl space-y-4 p-6">
      {/* At phone width the links move under the title together, still on the right. */}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h1 className="text-2xl font-bold">Agents</h1>
        <div className="ml-auto flex flex-wrap items-center justify-end gap-x-3 gap-y-2 whitespace-nowrap">
          {adminPages.map(([href, label]) => (
            <Link key={href} href={href} className="text-sm text-link hover:underline">
              {label}
            </Link>
          ))}
          <Link href="/admin/agents/new" className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
            New agent
          </Link>
        </div>
      </div>
      <table className="w-full text-left text-sm">
        <thead className="text-xs uppercase text-muted">
          <tr>
            <th className="py-2">Agent</th>
            <th className={wideOnly}>Model</th>
            <th className={wideOnly}>History</th>
            <th className={wideOnly}>Status</th>
            <th><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {agents.map((agent) => (
            <tr key={agent.id} aria-label={`Agent ${agent.displayName}`} className={agent.enabled ? "" : "opacity-60"}>
              <td className="py-2">
                <span className="flex items-center gap-2">
                  <Avatar name={agent.displayName} colour={agent.color} size="sm" />
                  <span>
                    <span className="block font-semibold">{agent.displayName}</span>
                    <span className="block text-xs text-muted">@{agent.handle}</span>
                    <span className="block text-xs text-muted sm:hidden">
                      {agent.model} · {agent.historyWindow} messages{agent.enabled ? "" : " · Disabled"}
                    </span>
                    {caps.get(agent.id)?.warn && <span className="block text-xs font-semibold text-danger">{capWarningText(caps.get(agent.id)!)}</span>}
                  </span>
                </span>
              </td>
              <td className={wideOnly}>
                {agent.model} <span className="text-xs text-muted">({providerLabel(agent, providers)})</span>
              </td>
              <td className={wideOnly}>{agent.historyWindow} messages</td>
              <td className={wideOnly}>{agent.enabled ? "Enabled" : "Disabled"}</td>
              <td className="py-2">
                <span className="flex flex-wrap justify-end gap-x-3 gap-y-1">
                  <Link href={`/admin/agents/${agent.id}`} className="text-link hover:underline" aria-label={`Edit ${agent.displayName}`}>
                    Edit
                  </Link>
                  <Link href={`/admin/agents/${agent.id}/knowledge`} className="text-link hover:underline" aria-label={`Knowledge of ${agent.displayName}`}>
                    Knowledge
                  </Link>
                  <Link href={`/admin/agents/${agent.id}/procedures`} className="text-link hover:underline" aria-label={`Procedures of ${agent.displayName}`}>
                    Procedures
                  </Link>
                  <Link href={`/admin/agents/${agent.id}/handoffs`} className="text-link hover:underline" aria-label={`Handoffs of ${agent.displayName}`}>
                    Handoffs
                  </Link>
                  <Link href={`/admin/agents/${agent.id}/tools`} className="text-link hover:underline" aria-label={`Tools of ${agent.displayName}`}>
                    Tools
                  </Link>
                  <AgentEnabledToggle agentId={agent.id} name={agent.displayName} enabled={agent.enabled} action={setAgentEnabledAction} />
                  <AgentCopyDelete agentId={agent.id} name={agent.displayName} duplicate={duplicateAgentAction} remove={deleteAgentAction} />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {agents.length === 0 && <p className="text-muted">No agents yet. Create the first one.</p>}
    </div>
  );
}
