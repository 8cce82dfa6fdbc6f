import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createServer as createTcpServer } from "node:net";
import path from "node:path";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type Tool } from "@modelcontextprotocol/sdk/types.js";

/** A real MCP server over Streamable HTTP on a random local port (the SDK's own server classes). */
export interface HttpMcpServer {
  url: string;
  /** Sessions opened (an `initialize` each) and closed by the client (HTTP DELETE). */
  sessions: { opened: number; closed: number };
  /** Tools whose calls have started (a tool that hangs still counts). */
  calls: string[];
  /** Forgets every session, as a server that restarted would: their next request gets 404. */
  forgetSessions(): void;
  close(): Promise<void>;
}

const PAGE_SIZE = 50;
// Past one page (500 tools in all, as the worst server): the client must follow nextCursor to see them all.
const FILLER_TOOLS = 496;

const objectSchema = (properties: Record<string, object> = {}, required: string[] = []): Tool["inputSchema"] => ({ type: "object", properties, required });

/** echo (`times` over: a large answer), add, slow (waits `ms`, or until cancelled), fail (an error result), then filler_000… */
const TOOLS: Tool[] = [
  { name: "echo", description: "Says the text back.", inputSchema: objectSchema({ text: { type: "string" }, times: { type: "number" } }, ["text"]) },
  { name: "add", description: "Adds two numbers.", inputSchema: objectSchema({ a: { type: "number" }, b: { type: "number" } }, ["a", "b"]) },
  { name: "slow", description: "Answers after ms milliseconds.", inputSchema: objectSchema({ ms: { type: "number" } }, ["ms"]) },
  { name: "fail", description: "Always reports an error.", inputSchema: objectSchema() },
  ...Array.from({ length: FILLER_TOOLS }, (_, index) => ({ name: `filler_${String(index).padStart(3, "0")}`, inputSchema: objectSchema() })),
];

/** `requireAuthorization`: requests without this exact Authorization header get 401, as a real server's would. */
export async function startHttpMcpServer({ requireAuthorization }: { requireAuthorization?: string } = {}): Promise<HttpMcpServer> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const sessions = { opened: 0, closed: 0 };
  const calls: string[] = [];
  const sockets = new Set<Socket>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    if (requireAuthorization && request.headers.authorization !== requireAuthorization) {
      response.writeHead(401, { "content-type": "text/plain" }).end("missing or wrong token");
      return;
    }
    const sessionId = request.headers["mcp-session-id"];
    const known = typeof sessionId === "string" ? transports.get(sessionId) : undefined;
    if (known) return known.handleRequest(request, response);
    if (sessionId) {
      response.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32001, message: "Session not found" }, id: null }));
      return;
    }
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (id) => {
        transports.set(id, transport);
        sessions.opened++;
      },
      onsessionclosed: (id) => {
        transports.delete(id);
        sessions.closed++;
      },
    });
    await toolServer(calls).connect(transport);
    return transport.handleRequest(request, response);
  };
  const server = createServer((request, response) => void handle(request, response));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    sessions,
    calls,
    forgetSessions: () => transports.clear(),
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function toolServer(calls: string[]): Server {
  const server = new Server({ name: "test-http", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async (request) => {
    const start = Number(request.params?.cursor ?? 0);
    const next = start + PAGE_SIZE;
    return { tools: TOOLS.slice(start, next), ...(next < TOOLS.length ? { nextCursor: String(next) } : {}) };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const args = (request.params.arguments ?? {}) as Record<string, unknown>;
    calls.push(request.params.name);
    switch (request.params.name) {
      case "echo":
        return { content: [{ type: "text", text: String(args.text).repeat(Number(args.times ?? 1)) }] };
      case "add":
        return { content: [{ type: "text", text: String(Number(args.a) + Number(args.b)) }] };
      case "slow":
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(args.ms));
          extra.signal.addEventListener("abort", () => (clearTimeout(timer), resolve()), { once: true });
        });
        return { content: [{ type: "text", text: "done" }] };
      case "fail":
        return { content: [{ type: "text", text: "the notes database is locked" }], isError: true };
      default:
        return { content: [{ type: "text", text: `ran ${request.params.name}` }] };
    }
  });
  return server;
}

/** Accepts connections and never answers a byte: a server that hangs. */
export async function startHangingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createTcpServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      sockets.forEach((socket) => socket.destroy());
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port nothing listens on (bound, then released). */
export async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** How Chorus starts the stdio test server (test/support/mcp-stdio-server.ts): this Node, with tsx. */
export const stdioServerCommand = (...extraArgs: string[]) => ({
  command: process.execPath,
  args: ["--import", "tsx", path.join(import.meta.dirname, "mcp-stdio-server.ts"), ...extraArgs],
});
