import type { McpServer } from "@/lib/generated/prisma/client";
import type { ServerConfig } from "./mcp-connection";
import type { SecretBox } from "./secret-box";

/** The columns a node needs to connect to a server (and to know when its configuration moved). */
export const serverConfigColumns = {
  id: true,
  name: true,
  transport: true,
  url: true,
  command: true,
  args: true,
  encryptedHeaders: true,
  encryptedEnv: true,
  enabled: true,
  version: true,
} as const;

export type ServerConfigRow = Pick<McpServer, keyof typeof serverConfigColumns>;

/** A server's sealed headers or environment are bound to its row and field (see SecretBox.seal). */
export const secretContext = (serverId: string, field: "headers" | "env") => `mcp_servers:${serverId}:${field}`;

/** The row as the SDK's transports take it, secrets opened (SecretUnreadableError when they cannot be). */
export function readServerConfig(row: ServerConfigRow, secrets: SecretBox): ServerConfig {
  if (row.transport === "http") {
    const headers = row.encryptedHeaders ? secrets.open(row.encryptedHeaders, secretContext(row.id, "headers")) : {};
    return { transport: "http", url: row.url ?? "", headers };
  }
  const env = row.encryptedEnv ? secrets.open(row.encryptedEnv, secretContext(row.id, "env")) : {};
  return { transport: "stdio", command: row.command ?? "", args: row.args, env };
}

/** Values for a server's row: the names in the clear (sorted), the values sealed, or null when none are set. */
export function sealServerSecrets(secrets: SecretBox, serverId: string, field: "headers" | "env", values: Record<string, string>): { names: string[]; sealed: string | null } {
  const names = Object.keys(values).sort();
  return { names, sealed: names.length > 0 ? secrets.seal(values, secretContext(serverId, field)) : null };
}
