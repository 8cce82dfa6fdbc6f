/** An MCP server as the API shows it: how it is reached and its status, never a secret's value. */
export interface McpServerView {
  id: string;
  name: string;
  transport: "http" | "stdio";
  url: string | null;
  command: string | null;
  args: string[];
  /** The headers (http) and environment variables (stdio) that are set, by name only. */
  headerNames: string[];
  envNames: string[];
  enabled: boolean;
  /**
   * `connected`: the last attempt (on any node) connected and listed its tools; `error`: it
   * failed, `lastError` says why; `disabled`: turned off; `unknown`: never tried yet.
   */
  status: "connected" | "error" | "disabled" | "unknown";
  lastConnectedAt: string | null;
  lastError: string | null;
  toolCount: number | null;
  createdBy: { id: string; name: string } | null;
  createdAt: string;
}

// Listed apart from server-config's columns on purpose: what answers a request never selects a sealed column.
export const serverViewColumns = {
  id: true,
  name: true,
  transport: true,
  url: true,
  command: true,
  args: true,
  headerNames: true,
  envNames: true,
  enabled: true,
  lastConnectedAt: true,
  lastError: true,
  toolCount: true,
  createdBy: { select: { id: true, name: true } },
  createdAt: true,
} as const;

type ServerViewRow = Omit<McpServerView, "status" | "lastConnectedAt" | "createdAt"> & { lastConnectedAt: Date | null; createdAt: Date };

export function toServerView(row: ServerViewRow): McpServerView {
  const status = !row.enabled ? "disabled" : row.lastError !== null ? "error" : row.lastConnectedAt ? "connected" : "unknown";
  return { ...row, status, lastConnectedAt: row.lastConnectedAt?.toISOString() ?? null, createdAt: row.createdAt.toISOString() };
}
