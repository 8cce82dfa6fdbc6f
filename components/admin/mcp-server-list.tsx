"use client";

import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { McpTool } from "@/lib/mcp/mcp-connection";
import type { McpServerView } from "@/lib/mcp/mcp-server-view";
import { ItemList } from "@/components/ui/item-list";
import { requestJson } from "./api-request";
import { ConfirmDelete } from "./confirm-delete";
import { McpServerForm } from "./mcp-server-form";
import { McpServerStatus, McpStatusBadge } from "./mcp-server-status";

const smallButton = "rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-60 dark:border-slate-600 dark:hover:bg-slate-800";

/** The project's MCP servers, each with its status and what an admin can do with it. */
export function McpServerList({ servers }: { servers: McpServerView[] }) {
  return (
    <ItemList items={servers} label="MCP servers" empty="No MCP servers yet. Add the first one below." itemLabel={(server) => `MCP server ${server.name}`} itemClassName="space-y-2">
      {(server) => <McpServerCard server={server} />}
    </ItemList>
  );
}

/** How the server is reached: its URL, or the command line it runs. */
function Address({ server }: { server: McpServerView }) {
  const [what, address, secretNames] = server.transport === "http" ? ["HTTP", server.url, server.headerNames] : ["Command", [server.command, ...server.args].join(" "), server.envNames];
  return (
    <>
      <p className="text-sm">
        <span className="text-muted">{what}: </span>
        <code className="break-all">{address}</code>
      </p>
      {secretNames.length > 0 && (
        <p className="text-xs text-muted">
          {server.transport === "http" ? "Headers" : "Environment"} set: <code className="break-all">{secretNames.join(", ")}</code>
        </p>
      )}
    </>
  );
}

function McpToolList({ tools }: { tools: McpTool[] }) {
  if (tools.length === 0) return <p className="text-sm text-muted">It lists no tools.</p>;
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-semibold text-link">{tools.length === 1 ? "1 tool" : `${tools.length.toLocaleString("en")} tools`}</summary>
      {/* Scrolls in its own box (reachable by keyboard), so the servers after it stay in reach. */}
      <ul aria-label="Tools" tabIndex={0} className="mt-1 max-h-72 space-y-1 overflow-y-auto pl-4">
        {tools.map((tool) => (
          <li key={tool.name}>
            <code className="break-all font-semibold">{tool.name}</code>
            {tool.description && <span className="text-muted">: {tool.description}</span>}
          </li>
        ))}
      </ul>
    </details>
  );
}

function McpServerCard({ server }: { server: McpServerView }) {
  const router = useRouter();
  const [busy, setBusy] = useState<"test" | "toggle" | "delete" | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [tools, setTools] = useState<McpTool[] | null>(null);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const editButton = useRef<HTMLButtonElement>(null);
  const hidden = <span className="sr-only"> {server.name}</span>;

  /** Runs one request; whatever its outcome, the status it recorded is read again. */
  const run = async <T,>(what: NonNullable<typeof busy>, request: Promise<{ data: T } | { error: { message: string } }>) => {
    setBusy(what);
    const result = await request;
    setBusy(null);
    setProblem("error" in result ? result.error.message : null);
    router.refresh();
    return "error" in result ? null : result.data;
  };
  const test = async () => setTools((await run("test", requestJson<{ tools: McpTool[] }>(`/api/mcp-servers/${server.id}/tools`, "GET")))?.tools ?? null);
  const toggle = () => void run("toggle", requestJson(`/api/mcp-servers/${server.id}`, "PATCH", { enabled: !server.enabled }));
  const remove = () => void run("delete", requestJson(`/api/mcp-servers/${server.id}`, "DELETE"));
  const closeEditor = () => {
    setEditing(false);
    editButton.current?.focus();
  };

  return (
    <>
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 break-all font-semibold">{server.name}</span>
        <McpStatusBadge status={server.status} />
      </div>
      <Address server={server} />
      <McpServerStatus server={server} />
      <div className="flex flex-wrap gap-2">
        {server.enabled && (
          <button type="button" onClick={() => void test()} disabled={busy !== null} className={smallButton}>
            {busy === "test" ? "Connecting…" : "Test connection"}
            {hidden}
          </button>
        )}
        <button type="button" onClick={toggle} disabled={busy !== null} className={smallButton}>
          {server.enabled ? "Disable" : "Enable"}
          {hidden}
        </button>
        <button ref={editButton} type="button" onClick={() => setEditing(!editing)} aria-expanded={editing} className={smallButton}>
          Edit{hidden}
        </button>
        <button type="button" onClick={() => setConfirmingDelete(true)} disabled={busy !== null} className={`${smallButton} text-danger`}>
          Delete{hidden}
        </button>
      </div>
      {confirmingDelete && <ConfirmDelete label={`Confirm deleting ${server.name}`} question={`Delete ${server.name}? Every agent loses its tools.`} onConfirm={remove} onCancel={() => setConfirmingDelete(false)} />}
      {problem && (
        <p role="alert" className="text-danger">
          {problem}
        </p>
      )}
      {tools && <McpToolList tools={tools} />}
      {editing && (
        <div className="border-t border-slate-200 pt-3 dark:border-slate-800">
          <McpServerForm server={server} onDone={closeEditor} />
        </div>
      )}
    </>
  );
}
