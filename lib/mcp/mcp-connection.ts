import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";

/** How to reach a server, its secrets decrypted: only the pool holds this, never a response. */
export type ServerConfig =
  | { transport: "http"; url: string; headers: Record<string, string> }
  | { transport: "stdio"; command: string; args: string[]; env: Record<string, string> };

/** A tool as its server lists it (what the model will be offered). */
export type McpTool = Pick<Tool, "name" | "title" | "description" | "inputSchema" | "outputSchema" | "annotations">;

/** An open MCP session with one server. */
export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** Aborts the connection attempt (deadline, shutdown). */
  signal: AbortSignal;
  timeoutMs: number;
  /** The server said its tool list changed (notifications/tools/list_changed). */
  onToolsChanged(): void;
  /** The session ended without close() (the process exited, the stream broke). */
  onClosed(): void;
  onError(error: Error): void;
  /** What a stdio server writes to stderr: the reason it gives when it fails. */
  onStderr(text: string): void;
}

// A server's own pages of tools are bounded; past this many pages a server is looping.
const MAX_TOOL_PAGES = 100;
const HTTP_GOODBYE_MS = 1_000;

/** Connects with the official SDK's client over Streamable HTTP or stdio; rejects within `timeoutMs`. */
export async function openConnection(config: ServerConfig, options: ConnectOptions): Promise<McpConnection> {
  const client = new Client(
    { name: "chorus", version: "1.0.0" },
    // Without autoRefresh the SDK would re-list one page only; the pool re-lists every page when next asked.
    { listChanged: { tools: { autoRefresh: false, debounceMs: 100, onChanged: () => options.onToolsChanged() } } },
  );
  let closing = false;
  const transport =
    config.transport === "http"
      ? new StreamableHTTPClientTransport(new URL(config.url), { requestInit: { headers: config.headers } })
      : new StdioClientTransport({ command: config.command, args: config.args, env: config.env, stderr: "pipe" });
  if (transport instanceof StdioClientTransport) {
    transport.stderr?.on("data", (chunk: Buffer) => options.onStderr(chunk.toString("utf8")));
  }
  client.onerror = (error) => options.onError(error);
  client.onclose = () => {
    if (!closing) options.onClosed();
  };
  const close = async () => {
    closing = true;
    // An HTTP server keeps a session until told it is over; a brief goodbye, never a wait.
    if (transport instanceof StreamableHTTPClientTransport) await Promise.race([transport.terminateSession().catch(() => {}), delay(HTTP_GOODBYE_MS)]);
    await client.close().catch(() => {});
  };
  try {
    await client.connect(transport, { signal: options.signal, timeout: options.timeoutMs });
  } catch (error) {
    // A process that never finished starting gets no grace period (the SDK's close waits 2 s for it).
    if (transport instanceof StdioClientTransport && transport.pid !== null) killQuietly(transport.pid);
    await close();
    throw error;
  }
  return { client, close };
}

/** Every page of the server's tools (`tools/list` is paginated by cursor). */
export async function listAllTools(client: Client, { signal, timeoutMs }: { signal: AbortSignal; timeoutMs: number }): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    // The SDK leaves its abort listener on the signal it is given: a signal of its own per page keeps a long listing from piling them up.
    const result = await client.listTools(cursor ? { cursor } : undefined, { signal: AbortSignal.any([signal]), timeout: timeoutMs });
    for (const { name, title, description, inputSchema, outputSchema, annotations } of result.tools) {
      tools.push({ name, title, description, inputSchema, outputSchema, annotations });
    }
    cursor = result.nextCursor;
    if (!cursor) return tools;
  }
  throw new Error(`its tool list goes on past ${MAX_TOOL_PAGES} pages`);
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, "SIGTERM");
  } catch {
    // Already gone.
  }
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
