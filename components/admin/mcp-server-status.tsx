import { DATE_AND_TIME, useDateFormat } from "@/components/providers/preferences-provider";
import type { McpServerView } from "@/lib/mcp/mcp-server-view";

const badges: Record<McpServerView["status"], [label: string, className: string]> = {
  connected: ["Connected", "bg-emerald-100 text-emerald-900 dark:bg-emerald-900 dark:text-emerald-50"],
  error: ["Not connected", "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100"],
  disabled: ["Disabled", "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-100"],
  unknown: ["Not tried yet", "bg-slate-200 text-slate-800 dark:bg-slate-800 dark:text-slate-100"],
};

export function McpStatusBadge({ status }: { status: McpServerView["status"] }) {
  const [label, className] = badges[status];
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${className}`}>{label}</span>;
}

/** Server and browser may be in different time zones: the browser's reading wins without a warning. */
function When({ iso }: { iso: string }) {
  const format = useDateFormat(DATE_AND_TIME);
  return (
    <time dateTime={iso} suppressHydrationWarning>
      {format.format(new Date(iso))}
    </time>
  );
}

/** What the last attempt (on any node) found: its tool count, or why it failed, and when it last worked. */
export function McpServerStatus({ server }: { server: McpServerView }) {
  const lastConnected = server.lastConnectedAt && (
    <>
      last connected <When iso={server.lastConnectedAt} />
    </>
  );
  if (server.status === "error") {
    return (
      <p className="text-sm">
        <span className="text-danger">{server.lastError}</span>
        {lastConnected && <span className="text-muted"> · {lastConnected}</span>}
      </p>
    );
  }
  if (server.status !== "connected") return null;
  return (
    <p className="text-sm text-muted">
      {server.toolCount === 1 ? "1 tool" : `${(server.toolCount ?? 0).toLocaleString("en")} tools`} · {lastConnected}
    </p>
  );
}
