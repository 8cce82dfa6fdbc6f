import "server-only";
import { randomUUID } from "node:crypto";
import { adminProject } from "@/lib/agents/manage-agents";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { serverNotFound } from "./manage-mcp-servers";
import type { NewServer, ServerChanges } from "./mcp-server-input";
import { serverViewColumns, toServerView, type McpServerView } from "./mcp-server-view";
import { SecretUnreadableError, type SecretBox } from "./secret-box";
import { readServerConfig, sealServerSecrets, serverConfigColumns, type ServerConfigRow } from "./server-config";

interface SaveDeps {
  prisma: Prisma;
  secrets: SecretBox;
}

/** Adds a server to the admin's project; a name already used there is 409. Secrets are sealed before they reach the database. */
export async function createMcpServer({ prisma, secrets }: SaveDeps, { actor, server }: { actor: SessionUser; server: NewServer }): Promise<McpServerView> {
  const projectId = await adminProject(prisma, actor);
  const id = randomUUID();
  const headers = sealServerSecrets(secrets, id, "headers", server.transport === "http" ? (server.headers ?? {}) : {});
  const env = sealServerSecrets(secrets, id, "env", server.transport === "stdio" ? (server.env ?? {}) : {});
  const row = await withNameConflict(server.name, () =>
    prisma.mcpServer.create({
      data: {
        id,
        projectId,
        name: server.name,
        transport: server.transport,
        url: server.transport === "http" ? server.url : null,
        command: server.transport === "stdio" ? server.command : null,
        args: server.transport === "stdio" ? (server.args ?? []) : [],
        headerNames: headers.names,
        encryptedHeaders: headers.sealed,
        envNames: env.names,
        encryptedEnv: env.sealed,
        enabled: server.enabled ?? true,
        createdByUserId: actor.id,
      },
      select: serverViewColumns,
    }),
  );
  log.info("MCP server added", { serverId: id, server: server.name, transport: server.transport, by: actor.id });
  return toServerView(row);
}

// Two admins changing different secrets at once both keep their change: a write that lost the race reads again.
const MAX_WRITE_ATTEMPTS = 3;

/**
 * Applies changes; secrets merge name by name (null removes one). The configuration's version
 * moves, so every node's pool reconnects with it at its next call. The caller closes this node's
 * connection at once.
 */
export async function updateMcpServer({ prisma, secrets }: SaveDeps, { actor, serverId, changes }: { actor: SessionUser; serverId: string; changes: ServerChanges }): Promise<McpServerView> {
  const projectId = await adminProject(prisma, actor);
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const row = await prisma.mcpServer.findFirst({ where: { id: serverId, projectId }, select: serverConfigColumns });
    if (!row) throw serverNotFound();
    assertFitsTransport(row.transport, changes);
    const current = changes.headers || changes.env ? currentSecrets(row, secrets) : {};
    const secretColumns = (field: "headers" | "env", values: Record<string, string>) => {
      const { names, sealed } = sealServerSecrets(secrets, serverId, field, values);
      return field === "headers" ? { headerNames: names, encryptedHeaders: sealed } : { envNames: names, encryptedEnv: sealed };
    };
    const { count } = await withNameConflict(changes.name ?? row.name, () =>
      prisma.mcpServer.updateMany({
        where: { id: serverId, version: row.version },
        data: {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.url !== undefined ? { url: changes.url } : {}),
          ...(changes.command !== undefined ? { command: changes.command } : {}),
          ...(changes.args !== undefined ? { args: changes.args } : {}),
          ...(changes.enabled !== undefined ? { enabled: changes.enabled } : {}),
          ...(changes.headers ? secretColumns("headers", mergeSecrets(current, changes.headers)) : {}),
          ...(changes.env ? secretColumns("env", mergeSecrets(current, changes.env)) : {}),
          version: row.version + 1,
        },
      }),
    );
    if (count === 1) {
      log.info("MCP server changed", { serverId, server: changes.name ?? row.name, fields: Object.keys(changes), by: actor.id });
      return toServerView(await prisma.mcpServer.findUniqueOrThrow({ where: { id: serverId }, select: serverViewColumns }));
    }
  }
  throw new AppError("conflict", "Someone else is changing this MCP server right now; reload it and try again.");
}

/**
 * The row's secrets (its headers or its environment, whichever its transport has). Ones that no
 * longer open (the key changed) are lost anyway: changes start from none, so entering them again
 * repairs the server.
 */
function currentSecrets(row: ServerConfigRow, secrets: SecretBox): Record<string, string> {
  try {
    const config = readServerConfig(row, secrets);
    return config.transport === "http" ? config.headers : config.env;
  } catch (error) {
    if (!(error instanceof SecretUnreadableError)) throw error;
    log.warn("MCP server secrets unreadable; replaced by the change", { serverId: row.id, server: row.name });
    return {};
  }
}

/** A value sets a name, null removes it, names not sent keep theirs. */
function mergeSecrets(current: Record<string, string>, changes: Record<string, string | null>): Record<string, string> {
  const merged = { ...current };
  for (const [name, value] of Object.entries(changes)) {
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

function assertFitsTransport(transport: "http" | "stdio", changes: ServerChanges): void {
  const foreign = transport === "http" ? (["command", "args", "env"] as const) : (["url", "headers"] as const);
  const sent = foreign.filter((field) => changes[field] !== undefined);
  if (sent.length > 0) {
    const other = transport === "http" ? "stdio" : "http";
    throw new AppError("bad_request", `${sent.join(", ")} ${sent.length > 1 ? "are" : "is"} for ${other} servers; this one is ${transport} (to change its transport, delete it and add it again).`);
  }
}

async function withNameConflict<T>(name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `An MCP server named ${name} already exists in this project: choose another name, or change that server.`, { name: "Name taken." });
    throw error;
  }
}
