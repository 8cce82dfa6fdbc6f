"use client";

import { useQueries, type UseQueryResult } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import type { AgentToolView } from "@/lib/mcp/manage-agent-tools";
import type { McpTool } from "@/lib/mcp/mcp-connection";
import type { McpServerView } from "@/lib/mcp/mcp-server-view";
import { getJson } from "@/hooks/get-json";
import { requestJson } from "./api-request";
import { FormSubmitRow } from "./form-submit-row";
import { ServerToolChoices } from "./server-tool-choices";

/** Tool name → its "ask first", per server id: a tool listed here is enabled for the agent. */
export type ChosenTools = Record<string, Record<string, boolean>>;

type ServerTools = { server: McpServerView; tools: McpTool[] };

const serverToolsKey = (serverId: string) => ["admin", "mcp-server", serverId, "tools"] as const;

const chosenOf = (tools: AgentToolView[]): ChosenTools =>
  tools.reduce<ChosenTools>((chosen, tool) => ({ ...chosen, [tool.serverId]: { ...chosen[tool.serverId], [tool.name]: tool.askFirst } }), {});

/**
 * What PUT is sent: every chosen tool, except those a server that answered no longer lists (the
 * API would refuse them). A server that did not answer keeps its tools: they are never dropped
 * unseen, and the API says why it cannot check them.
 */
function toolsToSave(chosen: ChosenTools, queries: UseQueryResult<ServerTools>[], servers: McpServerView[]) {
  return servers.flatMap((server, index) => {
    const listed = queries[index]?.data?.tools.map((tool) => tool.name);
    return Object.entries(chosen[server.id] ?? {})
      .filter(([name]) => !listed || listed.includes(name))
      .map(([name, askFirst]) => ({ serverId: server.id, name, askFirst }));
  });
}

/**
 * The tools an agent may call: every enabled server's tools, each asked for in parallel (a server
 * that is down says why in its own section, within the connect timeout), a box per tool and an
 * "Ask first" box per chosen one. Saving replaces the agent's whole set.
 */
export function AgentToolsForm({ agentId, agentName, servers, saved, onDisabledServers }: { agentId: string; agentName: string; servers: McpServerView[]; saved: AgentToolView[]; onDisabledServers: AgentToolView[] }) {
  const router = useRouter();
  const [chosen, setChosen] = useState(() => chosenOf(saved));
  const [error, setError] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const queries = useQueries({
    queries: servers.map((server) => ({
      queryKey: serverToolsKey(server.id),
      queryFn: () => getJson<ServerTools>(`/api/mcp-servers/${server.id}/tools`, `Could not list the tools of ${server.name}.`),
      // The route asks the server anew each time: every visit shows what it lists now.
      staleTime: 0,
      // A server that is down answers with its reason (within the connect timeout); asking again is the admin's call.
      retry: false,
    })),
  });

  const change = (serverId: string, tools: Record<string, boolean>) => {
    setStatus(null);
    setChosen((current) => ({ ...current, [serverId]: tools }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    // Tools of disabled servers are kept as they are: they come back when their server does.
    const keptOff = onDisabledServers.map((tool) => ({ serverId: tool.serverId, name: tool.name, askFirst: tool.askFirst }));
    const result = await requestJson<AgentToolView[]>(`/api/agents/${agentId}/tools`, "PUT", { tools: [...toolsToSave(chosen, queries, servers), ...keptOff] });
    setBusy(false);
    if ("error" in result) return setError(result.error.message);
    setError(null);
    setChosen(chosenOf(result.data));
    setStatus(`Saved: ${agentName} may use ${result.data.length === 1 ? "1 tool" : `${result.data.length} tools`}.`);
    router.refresh();
  };

  return (
    <form onSubmit={(event) => void submit(event)} aria-label={`${agentName}'s tools`} className="space-y-4" noValidate>
      {onDisabledServers.length > 0 && (
        <p className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:bg-amber-900/60 dark:text-amber-50">
          {agentName} keeps tools of disabled servers ({onDisabledServers.map((tool) => `${tool.serverName}: ${tool.name}`).join(", ")}): they are offered again once their server is enabled on the Tools page.
        </p>
      )}
      {servers.map((server, index) => (
        <ServerToolChoices key={server.id} server={server} query={queries[index]!} chosen={chosen[server.id] ?? {}} onChange={(tools) => change(server.id, tools)} />
      ))}
      <div className="sticky bottom-0 border-t border-slate-200 bg-white py-3 dark:border-slate-800 dark:bg-slate-950">
        <FormSubmitRow error={error} busy={busy} label="Save tools" busyLabel="Saving…" done={status} />
      </div>
    </form>
  );
}
