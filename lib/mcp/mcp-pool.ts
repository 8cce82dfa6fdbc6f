import { StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError, type ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { describeFailure, isTimeout } from "./describe-failure";
import { listAllTools, openConnection, type McpConnection, type McpTool } from "./mcp-connection";
import { McpFailure } from "./mcp-failure";
import type { SecretBox } from "./secret-box";
import { readServerConfig, serverConfigColumns, type ServerConfigRow } from "./server-config";

export interface McpPoolOptions {
  prisma: Prisma;
  secrets: SecretBox;
  /** Connecting and listing tools, together. */
  connectTimeoutMs: number;
  /** A tool call's default; a caller may pass its own. */
  toolTimeoutMs: number;
  /** After a failed connection, calls fail at once with its reason for this long; a refresh or a change of configuration tries again. */
  retryAfterMs?: number;
}

/** What a tool answered: its content blocks, and whether the tool itself reports an error. */
export interface McpToolResult {
  content: ContentBlock[];
  isError: boolean;
  structuredContent?: Record<string, unknown>;
}

export interface CallOptions {
  /** Aborting it abandons the call at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface Live {
  connection: McpConnection;
  tools: McpTool[];
  /** The server said its tools changed: listed again when next asked. */
  stale: boolean;
}

/** One server's connection on this node, for one version of its configuration. */
interface Session {
  version: number;
  name: string;
  /** A stdio server's program, named when it cannot be run. */
  command?: string;
  /** Cancels the connection attempt (shutdown, replacement). */
  abort: AbortController;
  ready: Promise<Live>;
  live?: Live;
  failure?: { reason: string; at: number };
  stderr: string;
}

const STDERR_TAIL_CHARS = 2_000;
// Long enough that a turn offering a dead server's tools does not wait for it again and again.
const DEFAULT_RETRY_AFTER_MS = 5_000;

/**
 * This node's connections to MCP servers, one per server, opened on first use and reused by every
 * later call. Each use reads the server's row (one primary-key lookup), so a change made on any
 * node (configuration, turned off, deleted) takes effect at the next call. A server that is down
 * fails with the reason within the connect timeout, and then at once for `retryAfterMs`; its
 * status (connected, tool count, last error) is recorded on its row.
 */
export class McpPool {
  private readonly sessions = new Map<string, Session>();
  private readonly closing = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly options: McpPoolOptions) {}

  /** The server's tools; `refresh` lists them again (and retries a recent failure at once). */
  async toolsOf(serverId: string, { refresh = false, signal }: { refresh?: boolean; signal?: AbortSignal } = {}): Promise<McpTool[]> {
    const { session, created } = await this.sessionFor(serverId, refresh);
    const live = await untilReady(session, signal);
    if (created || !(refresh || live.stale)) return live.tools;
    try {
      live.stale = false;
      live.tools = await listAllTools(live.connection.client, { signal: this.deadline(session, signal), timeoutMs: this.options.connectTimeoutMs });
      await this.record(serverId, session, { lastConnectedAt: new Date(), lastError: null, toolCount: live.tools.length });
      return live.tools;
    } catch (error) {
      throw await this.broken(serverId, session, error, signal);
    }
  }

  /** Calls a tool; rejects with McpFailure (timeout, unavailable, failed) or the signal's reason. */
  async callTool(serverId: string, name: string, args: Record<string, unknown>, { signal, timeoutMs = this.options.toolTimeoutMs }: CallOptions = {}, retried = false): Promise<McpToolResult> {
    const { session, created } = await this.sessionFor(serverId, false);
    const live = await untilReady(session, signal);
    try {
      const result = await live.connection.client.callTool({ name, arguments: args }, undefined, { signal, timeout: timeoutMs });
      if ("toolResult" in result) return { content: [{ type: "text", text: JSON.stringify(result.toolResult) }], isError: false };
      return { content: result.content, isError: result.isError === true, ...(result.structuredContent ? { structuredContent: result.structuredContent } : {}) };
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      const tool = `Tool ${name} of MCP server ${session.name}`;
      // The tool may still finish on the server; the session itself is fine.
      if (isTimeout(error)) throw new McpFailure("timeout", session.name, describeFailure(error, { timeoutMs }), tool);
      if (error instanceof McpError && error.code !== ErrorCode.ConnectionClosed) throw new McpFailure("failed", session.name, `refused the call: ${describeFailure(error, { timeoutMs })}`, tool);
      // An HTTP server that restarted no longer knows the session, and ran nothing: once more on a new one.
      if (!created && !retried && error instanceof StreamableHTTPError && error.code === 404) {
        void this.drop(serverId, session);
        return this.callTool(serverId, name, args, { signal, timeoutMs }, true);
      }
      throw await this.broken(serverId, session, error, signal);
    }
  }

  /** Closes the server's connection (its configuration changed, or it was deleted); the next call opens a new one. */
  async forget(serverId: string): Promise<void> {
    const session = this.sessions.get(serverId);
    if (session) await this.drop(serverId, session);
  }

  /** Closes every connection (stdio servers' processes end); later calls fail as unavailable. */
  async close(): Promise<void> {
    this.closed = true;
    for (const [serverId, session] of this.sessions) void this.drop(serverId, session);
    await Promise.all(this.closing);
  }

  private async sessionFor(serverId: string, refresh: boolean): Promise<{ session: Session; created: boolean }> {
    const row = await this.options.prisma.mcpServer.findUnique({ where: { id: serverId }, select: serverConfigColumns });
    if (!row) throw new AppError("not_found", "That MCP server does not exist (it may have been deleted).");
    if (this.closed) throw new McpFailure("unavailable", row.name, "is not available: this node is shutting down");
    const existing = this.sessions.get(serverId);
    if (!row.enabled) {
      if (existing) void this.drop(serverId, existing);
      throw new McpFailure("unavailable", row.name, "is turned off (an admin can turn it on)");
    }
    // A session at least as new as this read serves it (a concurrent caller may have read a newer row).
    if (existing && existing.version >= row.version) {
      if (!existing.failure) return { session: existing, created: false };
      if (!refresh && Date.now() - existing.failure.at < (this.options.retryAfterMs ?? DEFAULT_RETRY_AFTER_MS)) throw new McpFailure("unavailable", row.name, existing.failure.reason);
    }
    if (existing) void this.drop(serverId, existing);
    const session = { version: row.version, name: row.name, command: row.command ?? undefined, abort: new AbortController(), stderr: "" } as Session;
    session.ready = this.open(row, session);
    // Nobody may be waiting when it fails: the failure is kept on the session.
    session.ready.catch(() => {});
    this.sessions.set(serverId, session);
    return { session, created: true };
  }

  private async open(row: ServerConfigRow, session: Session): Promise<Live> {
    const timeoutMs = this.options.connectTimeoutMs;
    const signal = this.deadline(session);
    let connection: McpConnection | undefined;
    try {
      connection = await openConnection(readServerConfig(row, this.options.secrets), {
        signal,
        timeoutMs,
        onToolsChanged: () => {
          if (session.live) session.live.stale = true;
        },
        onClosed: () => void this.lost(row.id, session),
        onError: (error) => log.debug("MCP transport error", { serverId: row.id, server: row.name, error: error.message }),
        onStderr: (text) => {
          session.stderr = (session.stderr + text).slice(-STDERR_TAIL_CHARS);
        },
      });
      const tools = await listAllTools(connection.client, { signal, timeoutMs });
      if (session.abort.signal.aborted) throw session.abort.signal.reason;
      session.live = { connection, tools, stale: false };
      await this.record(row.id, session, { lastConnectedAt: new Date(), lastError: null, toolCount: tools.length });
      log.info("MCP server connected", { serverId: row.id, server: row.name, transport: row.transport, tools: tools.length });
      return session.live;
    } catch (error) {
      await connection?.close();
      if (session.abort.signal.aborted) throw new McpFailure("unavailable", row.name, this.closed ? "is not available: this node is shutting down" : "was reconfigured while connecting; try again");
      const reason = describeFailure(error, { timeoutMs, command: session.command, stderr: session.stderr });
      session.failure = { reason, at: Date.now() };
      await this.record(row.id, session, { lastError: reason });
      log.warn("MCP server unavailable", { serverId: row.id, server: row.name, transport: row.transport, reason });
      throw new McpFailure("unavailable", row.name, reason);
    }
  }

  /** A connected session broke during a call: dropped (the next call reconnects), and the reason recorded. */
  private async broken(serverId: string, session: Session, error: unknown, signal?: AbortSignal): Promise<unknown> {
    if (signal?.aborted) return signal.reason;
    const reason = describeFailure(error, { timeoutMs: this.options.connectTimeoutMs, command: session.command, stderr: session.stderr });
    void this.drop(serverId, session);
    await this.record(serverId, session, { lastError: reason });
    log.warn("MCP server connection lost", { serverId, server: session.name, reason });
    return new McpFailure("unavailable", session.name, reason);
  }

  /** The session ended by itself (a stdio server exited): the next call starts it again. */
  private async lost(serverId: string, session: Session): Promise<void> {
    if (!session.live || this.sessions.get(serverId) !== session) return;
    await this.broken(serverId, session, new McpError(ErrorCode.ConnectionClosed, "Connection closed"));
  }

  private drop(serverId: string, session: Session): Promise<void> {
    if (this.sessions.get(serverId) === session) this.sessions.delete(serverId);
    session.abort.abort();
    const closed = session.ready.then(
      (live) => live.connection.close(),
      () => {},
    );
    this.closing.add(closed);
    void closed.finally(() => this.closing.delete(closed));
    return closed;
  }

  /** The session's deadline for connecting or listing, cancelled with the session (and by the caller's signal). */
  private deadline(session: Session, signal?: AbortSignal): AbortSignal {
    return AbortSignal.any([session.abort.signal, AbortSignal.timeout(this.options.connectTimeoutMs), ...(signal ? [signal] : [])]);
  }

  /** Status on the server's row, unless its configuration moved on meanwhile. Best effort: a call never fails for it. */
  private async record(serverId: string, session: Session, status: { lastConnectedAt?: Date; lastError: string | null; toolCount?: number }): Promise<void> {
    if (this.closed) return;
    try {
      await this.options.prisma.mcpServer.updateMany({ where: { id: serverId, version: session.version }, data: status });
    } catch (error) {
      log.warn("MCP server status not recorded", { serverId, error });
    }
  }
}

/** The session's connection, or the caller's signal's reason as soon as it aborts (the attempt goes on for others). */
function untilReady(session: Session, signal?: AbortSignal): Promise<Live> {
  if (!signal) return session.ready;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
    session.ready.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}
