import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as agentToolsRoute, PUT as setAgentToolsRoute } from "@/app/api/agents/[agentId]/tools/route";
import { DELETE as deleteServerRoute, PATCH as patchServerRoute } from "@/app/api/mcp-servers/[serverId]/route";
import { GET as serverToolsRoute } from "@/app/api/mcp-servers/[serverId]/tools/route";
import { GET as listServersRoute, POST as addServerRoute } from "@/app/api/mcp-servers/route";
import { McpFailure } from "@/lib/mcp/mcp-failure";
import { McpPool } from "@/lib/mcp/mcp-pool";
import { toolsForTurn } from "@/lib/mcp/tools-for-turn";
import { createProjectWithChannel } from "../support/fixtures";
import { freePort, startHangingServer, startHttpMcpServer, stdioServerCommand, type HttpMcpServer } from "../support/mcp-servers";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";

type Route<P> = (request: Request, context: { params: Promise<P> }) => Promise<Response>;
interface Answer {
  status: number;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a JSON body, read by the assertions
  body: any;
}

const TOKEN = "Bearer s3cret-notes-token";
const ENV_SECRET = "db-password-8c1f";

/** Admins connect MCP servers, list their tools and give them to agents; secrets stay sealed. */
describe("MCP servers", () => {
  let app: TestApp;
  let admin: TestUser;
  let member: TestUser;
  let agentId: string;
  let notes: HttpMcpServer;

  const call = async <P>(route: Route<P>, user: TestUser, { method = "GET", params, body }: { method?: string; params?: P; body?: unknown } = {}): Promise<Answer> => {
    const init: RequestInit = { method, headers: { cookie: user.cookie, "content-type": "application/json" }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) };
    const response = await route(new Request(`${app.url}/api/test`, init), { params: Promise.resolve(params as P) });
    const text = await response.text();
    return { status: response.status, text, body: JSON.parse(text) };
  };
  const addServer = (body: unknown, user = admin) => call((request) => addServerRoute(request), user, { method: "POST", body });
  const patchServer = (serverId: string, body: unknown, user = admin) => call(patchServerRoute, user, { method: "PATCH", params: { serverId }, body });
  const serverTools = (serverId: string, user = admin) => call(serverToolsRoute, user, { params: { serverId } });
  const setTools = (tools: unknown, user = admin) => call(setAgentToolsRoute, user, { method: "PUT", params: { agentId }, body: { tools } });
  const row = (id: string) => app.prisma.mcpServer.findUniqueOrThrow({ where: { id } });

  beforeAll(async () => {
    app = await TestApp.start();
    const { project } = await createProjectWithChannel(app.prisma);
    admin = await app.signUp("Ada Admin");
    member = await app.signUp("Max Member");
    await app.prisma.user.update({ where: { id: admin.id }, data: { role: "admin" } });
    agentId = (await app.prisma.agent.create({ data: { projectId: project.id, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "x", model: "offline" } })).id;
    notes = await startHttpMcpServer({ requireAuthorization: TOKEN });
  });
  afterAll(async () => {
    await app.close();
    await notes.close();
  });

  it("adds a Streamable HTTP server, lists every page of its tools and calls them over one reused session", async () => {
    const added = await addServer({ transport: "http", name: "notes", url: notes.url, headers: { Authorization: TOKEN } });
    expect(added.status).toBe(201);
    expect(added.body.data).toMatchObject({ name: "notes", transport: "http", url: notes.url, headerNames: ["authorization"], envNames: [], status: "connected", toolCount: 500, lastError: null });
    expect(added.body.data.createdBy).toEqual({ id: admin.id, name: "Ada Admin" });

    const listed = await serverTools(added.body.data.id);
    expect(listed.status).toBe(200);
    expect(listed.body.data.tools).toHaveLength(500);
    expect(listed.body.data.tools[0]).toMatchObject({ name: "echo", description: "Says the text back.", inputSchema: { type: "object", required: ["text"] } });
    expect(listed.body.data.tools.at(-1).name).toBe("filler_495");

    const pool = app.runtime.mcp;
    expect(await pool.callTool(added.body.data.id, "add", { a: 2, b: 3 })).toEqual({ content: [{ type: "text", text: "5" }], isError: false });
    expect(await pool.callTool(added.body.data.id, "fail", {})).toEqual({ content: [{ type: "text", text: "the notes database is locked" }], isError: true });
    expect((await pool.toolsOf(added.body.data.id)).map((tool) => tool.name)).toContain("filler_000");
    expect(notes.sessions.opened).toBe(1);
  });

  it("keeps headers and environment values encrypted at rest and never answers them", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    expect(server!.encryptedHeaders).toMatch(/^v1\./);
    expect(server!.encryptedHeaders).not.toContain("s3cret");
    expect(Buffer.from(server!.encryptedHeaders!.split(".")[3]!, "base64url").toString("latin1")).not.toContain("s3cret");

    const stdio = await addServer({ transport: "stdio", name: "local-notes", ...stdioServerCommand(), env: { NOTES_DB_PASSWORD: ENV_SECRET } });
    expect(stdio.body.data).toMatchObject({ status: "connected", toolCount: 3, envNames: ["NOTES_DB_PASSWORD"], headerNames: [] });
    const stored = await row(stdio.body.data.id);
    expect(stored.encryptedEnv).not.toContain(ENV_SECRET);
    // The process got the value all the same.
    expect(await app.runtime.mcp.callTool(stored.id, "read_env", { name: "NOTES_DB_PASSWORD" })).toMatchObject({ content: [{ type: "text", text: ENV_SECRET }] });

    // A changed header keeps the other one (merged name by name), and no answer carries a value.
    const patched = await patchServer(server!.id, { headers: { "X-Notes-Client": "chorus" } });
    expect(patched.body.data).toMatchObject({ headerNames: ["authorization", "x-notes-client"], status: "connected" });
    const answers = [stdio.text, patched.text, (await call((request) => listServersRoute(request), admin)).text, (await serverTools(server!.id)).text];
    for (const text of answers) {
      expect(text).not.toContain("s3cret");
      expect(text).not.toContain(ENV_SECRET);
      expect(text).not.toMatch(/encrypted/i);
    }
  });

  it("records a wrong credential as the server's error, and reconnects when it is fixed", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const wrong = await patchServer(server!.id, { headers: { authorization: "Bearer expired" } });
    expect(wrong.body.data).toMatchObject({ status: "error", lastError: "refused Chorus's credentials (HTTP 401): check its headers" });
    const tools = await serverTools(server!.id);
    expect(tools.status).toBe(503);
    expect(tools.body.error.message).toBe("MCP server notes refused Chorus's credentials (HTTP 401): check its headers.");

    const fixed = await patchServer(server!.id, { headers: { authorization: TOKEN } });
    expect(fixed.body.data).toMatchObject({ status: "connected", lastError: null, toolCount: 500 });
  });

  it("states why a server cannot be reached: refused, hanging, a missing command, a process that exits at start", async () => {
    const down = await addServer({ transport: "http", name: "down", url: `http://127.0.0.1:${await freePort()}/mcp` });
    expect(down.status).toBe(201);
    expect(down.body.data).toMatchObject({ status: "error", lastError: "refused the connection (is it running, on that port?)" });

    const missing = await addServer({ transport: "stdio", name: "missing", command: "/nonexistent/notes-mcp" });
    expect(missing.body.data.lastError).toBe("the command /nonexistent/notes-mcp was not found (is it installed, and on the PATH?)");

    const failing = await addServer({ transport: "stdio", name: "failing", ...stdioServerCommand("--fail-at-start") });
    expect(failing.body.data.status).toBe("error");
    expect(failing.body.data.lastError).toMatch(/^closed the connection \(the process exited\); it said: fatal: NOTES_DB is not set$/);

    // A short-fused pool over the same database: a hanging server costs the timeout, then nothing.
    const hanging = await startHangingServer();
    try {
      const created = await app.prisma.mcpServer.create({ data: { projectId: (await row(down.body.data.id)).projectId, name: "hanging", transport: "http", url: hanging.url } });
      const pool = new McpPool({ prisma: app.prisma, secrets: app.runtime.secrets, connectTimeoutMs: 300, toolTimeoutMs: 300 });
      let started = performance.now();
      const failure = await pool.toolsOf(created.id).catch((error: unknown) => error);
      expect(performance.now() - started).toBeLessThan(2_000);
      expect(failure).toBeInstanceOf(McpFailure);
      expect((failure as McpFailure).message).toBe("MCP server hanging did not answer within 0.3 s.");
      expect((await row(created.id)).lastError).toBe("did not answer within 0.3 s");
      started = performance.now();
      await expect(pool.callTool(created.id, "echo", { text: "hi" })).rejects.toThrow("MCP server hanging did not answer within 0.3 s.");
      expect(performance.now() - started).toBeLessThan(100);

      // A process that never answers is ended, not left behind.
      const silent = await app.prisma.mcpServer.create({ data: { projectId: created.projectId, name: "silent", transport: "stdio", command: "/bin/sleep", args: ["60"] } });
      started = performance.now();
      await expect(pool.toolsOf(silent.id)).rejects.toThrow("MCP server silent did not answer within 0.3 s.");
      expect(performance.now() - started).toBeLessThan(2_000);
      await pool.close();
    } finally {
      await hanging.close();
    }
  });

  it("ends a tool call that takes too long or is abandoned, and keeps the session", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const pool = app.runtime.mcp;
    const opened = notes.sessions.opened;
    const slow = await pool.callTool(server!.id, "slow", { ms: 10_000 }, { timeoutMs: 200 }).catch((error: unknown) => error);
    expect(slow).toBeInstanceOf(McpFailure);
    expect(slow).toMatchObject({ kind: "timeout", message: "Tool slow of MCP server notes did not answer within 0.2 s." });

    const controller = new AbortController();
    const abandoned = pool.callTool(server!.id, "slow", { ms: 10_000 }, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error("the turn was stopped")), 50);
    await expect(abandoned).rejects.toThrow("the turn was stopped");

    expect(await pool.callTool(server!.id, "echo", { text: "still here" })).toMatchObject({ content: [{ text: "still here" }] });
    expect(notes.sessions.opened).toBe(opened);
  });

  it("reconnects when a server forgot the session, and when the configuration moved on another node", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const pool = app.runtime.mcp;
    const opened = notes.sessions.opened;
    notes.forgetSessions();
    expect(await pool.callTool(server!.id, "echo", { text: "after a restart" })).toMatchObject({ content: [{ text: "after a restart" }] });
    expect(notes.sessions.opened).toBe(opened + 1);

    // Another node changed it: the row's version moved, and this node's next call follows.
    const closed = notes.sessions.closed;
    await app.prisma.mcpServer.update({ where: { id: server!.id }, data: { version: { increment: 1 } } });
    await pool.callTool(server!.id, "echo", { text: "new version" });
    expect(notes.sessions.opened).toBe(opened + 2);
    await until(() => notes.sessions.closed === closed + 1, "the old session closed");
  });

  it("starts a stdio server again after its process exits", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "local-notes" } });
    const pool = app.runtime.mcp;
    const firstPid = Number(((await pool.callTool(server!.id, "whoami", {})).content[0] as { text: string }).text);
    await pool.callTool(server!.id, "exit", {});
    await until(async () => (await row(server!.id)).lastError !== null, "the exit recorded");
    expect((await row(server!.id)).lastError).toBe("closed the connection (the process exited)");
    const secondPid = Number(((await pool.callTool(server!.id, "whoami", {})).content[0] as { text: string }).text);
    expect(secondPid).not.toBe(firstPid);
  });

  it("refuses bad input with the reason: a bad url, a taken name, fields of the other transport", async () => {
    const refused = async (body: unknown) => {
      const answer = await addServer(body);
      expect(answer.status, answer.text).toBeGreaterThanOrEqual(400);
      return `${answer.status} ${answer.body.error.message}`;
    };
    expect(await refused({ transport: "http", name: "x", url: "ftp://files.example.com/mcp" })).toBe("400 url must start with http:// or https:// (not ftp://).");
    expect(await refused({ transport: "http", name: "x", url: "not a url" })).toBe('400 url is not a valid address ("not a url"): write it in full, like https://mcp.example.com/mcp.');
    expect(await refused({ transport: "http", name: "x", url: "https://me:pw@mcp.example.com/mcp" })).toMatch(/^400 url must not contain a user name or password/);
    expect(await refused({ transport: "http", name: "Notes!", url: notes.url })).toMatch(/^400 name must be 1–32 lowercase letters/);
    expect(await refused({ transport: "http", name: "x", url: notes.url, command: "rm" })).toMatch(/^400 Unknown field: command\. An http server has name, url, headers and enabled/);
    expect(await refused({ transport: "smtp", name: "x" })).toBe('400 transport must be "http" (a Streamable HTTP url) or "stdio" (a command to run).');
    expect(await refused({ transport: "http", name: "x", url: notes.url, headers: { "mcp-session-id": "1" } })).toMatch(/The mcp-session-id header is set by Chorus/);
    expect(await refused({ transport: "http", name: "notes", url: notes.url })).toBe("409 An MCP server named notes already exists in this project: choose another name, or change that server.");

    const [stdio] = await app.prisma.mcpServer.findMany({ where: { name: "local-notes" } });
    const wrongField = await patchServer(stdio!.id, { url: notes.url });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.error.message).toBe("url is for http servers; this one is stdio (to change its transport, delete it and add it again).");
    const renamed = await patchServer(stdio!.id, { name: "notes" });
    expect(renamed.status).toBe(409);
  });

  it("answers 403 to members for every endpoint, a stdio command included, before reading the body", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const answers = await Promise.all([
      call((request) => listServersRoute(request), member),
      addServer({ transport: "stdio", name: "mine", command: "/bin/sh", args: ["-c", "id"] }, member),
      addServer("not even json", member),
      patchServer(server!.id, { enabled: false }, member),
      call(deleteServerRoute, member, { method: "DELETE", params: { serverId: server!.id } }),
      serverTools(server!.id, member),
      call(agentToolsRoute, member, { params: { agentId } }),
      setTools([{ serverId: server!.id, name: "echo" }], member),
    ]);
    for (const answer of answers) expect(answer.body, answer.text).toEqual({ error: { code: "forbidden", message: "Only admins can do this. Ask an admin of your project." } });
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(403));
    expect(await app.prisma.mcpServer.count({ where: { name: "mine" } })).toBe(0);
  });

  it("gives an agent tools that its server lists now, with ask-first, and refuses unknown ones by name", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const unknown = await setTools([{ serverId: server!.id, name: "echo" }, { serverId: server!.id, name: "delete_everything" }]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/^MCP server notes has no tool named delete_everything\. It lists: echo, add, slow, fail, filler_000, .* and 480 more\.$/);
    expect(await app.prisma.agentTool.count({ where: { agentId } })).toBe(0);

    const chosen = [{ serverId: server!.id, name: "echo" }, { serverId: server!.id, name: "add", askFirst: true }];
    const first = await setTools(chosen);
    expect(first.status).toBe(200);
    expect(first.body.data).toEqual([
      { serverId: server!.id, serverName: "notes", name: "add", askFirst: true },
      { serverId: server!.id, serverName: "notes", name: "echo", askFirst: false },
    ]);
    // The same request again changes nothing; a smaller set removes the rest.
    expect((await setTools(chosen)).body).toEqual(first.body);
    expect((await setTools([{ serverId: server!.id, name: "add", askFirst: false }])).body.data).toEqual([{ serverId: server!.id, serverName: "notes", name: "add", askFirst: false }]);
    expect((await call(agentToolsRoute, admin, { params: { agentId } })).body.data).toHaveLength(1);

    expect((await setTools([{ serverId: "no-such-server", name: "echo" }])).body.error.message).toBe("No MCP server with id no-such-server in your project.");
    expect((await setTools([{ serverId: server!.id, name: "echo" }, { serverId: server!.id, name: "echo", askFirst: true }])).body.error.message).toBe("The tool echo is listed twice for the same server; list each tool once.");
    const down = (await app.prisma.mcpServer.findMany({ where: { name: "down" } }))[0]!;
    const unreachable = await setTools([{ serverId: down.id, name: "echo" }]);
    expect(unreachable.status).toBe(503);
    expect(unreachable.body.error.message).toBe("MCP server down refused the connection (is it running, on that port?).");
    expect(await app.prisma.agentTool.count({ where: { agentId } })).toBe(1);

    expect((await setTools([])).body.data).toEqual([]);
  });

  it("gives a turn the agent's tools as its servers list them now, named server__tool; a server that is down is left out with the reason", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    const down = (await app.prisma.mcpServer.findMany({ where: { name: "down" } }))[0]!;
    await app.prisma.agentTool.createMany({
      data: [
        { agentId, serverId: server!.id, toolName: "echo" },
        { agentId, serverId: server!.id, toolName: "add", askFirst: true },
        { agentId, serverId: down.id, toolName: "echo" },
      ],
    });
    const { tools, unavailable } = await toolsForTurn(app.prisma, app.runtime.mcp, { agentId });
    expect(tools.map(({ name, server: at, toolName, askFirst }) => ({ name, at, toolName, askFirst }))).toEqual([
      { name: "notes__add", at: "notes", toolName: "add", askFirst: true },
      { name: "notes__echo", at: "notes", toolName: "echo", askFirst: false },
    ]);
    expect(tools[1]).toMatchObject({ serverId: server!.id, description: "Says the text back.", parameters: { type: "object", required: ["text"] } });
    expect(unavailable).toEqual([{ server: "down", reason: "refused the connection (is it running, on that port?)" }]);

    // A server turned off offers nothing and is not waited on.
    await patchServer(server!.id, { enabled: false });
    expect((await toolsForTurn(app.prisma, app.runtime.mcp, { agentId })).tools).toEqual([]);
    await patchServer(server!.id, { enabled: true });
    await app.prisma.agentTool.deleteMany({ where: { agentId } });
  });

  it("turns a server off and on, and deleting it takes its tools from every agent", async () => {
    const [server] = await app.prisma.mcpServer.findMany({ where: { name: "notes" } });
    await setTools([{ serverId: server!.id, name: "echo" }]);
    const off = await patchServer(server!.id, { enabled: false });
    expect(off.body.data).toMatchObject({ enabled: false, status: "disabled" });
    await expect(app.runtime.mcp.callTool(server!.id, "echo", { text: "x" })).rejects.toThrow("MCP server notes is turned off (an admin can turn it on).");
    // Its tools already chosen are kept as they are (nothing asks the server); a new one is refused.
    expect((await setTools([{ serverId: server!.id, name: "echo", askFirst: true }])).status).toBe(200);
    expect((await setTools([{ serverId: server!.id, name: "echo" }, { serverId: server!.id, name: "add" }])).status).toBe(409);
    expect((await patchServer(server!.id, { enabled: true })).body.data.status).toBe("connected");

    const deleted = await call(deleteServerRoute, admin, { method: "DELETE", params: { serverId: server!.id } });
    expect(deleted).toMatchObject({ status: 200, body: { data: null } });
    expect(await app.prisma.agentTool.count({ where: { agentId } })).toBe(0);
    expect((await call(deleteServerRoute, admin, { method: "DELETE", params: { serverId: server!.id } })).status).toBe(404);
    await expect(app.runtime.mcp.toolsOf(server!.id)).rejects.toThrow("That MCP server does not exist");
  });
});

describe("MCP connections at shutdown", () => {
  it("closes every connection when the runtime stops: the HTTP session ends and the stdio process exits", async () => {
    const app = await TestApp.start();
    const server = await startHttpMcpServer();
    try {
      const { project } = await createProjectWithChannel(app.prisma);
      const http = await app.prisma.mcpServer.create({ data: { projectId: project.id, name: "http", transport: "http", url: server.url } });
      const stdio = await app.prisma.mcpServer.create({ data: { projectId: project.id, name: "stdio", transport: "stdio", ...stdioServerCommand() } });
      await app.runtime.mcp.callTool(http.id, "echo", { text: "hello" });
      const pid = Number(((await app.runtime.mcp.callTool(stdio.id, "whoami", {})).content[0] as { text: string }).text);
      expect(alive(pid)).toBe(true);
      expect(server.sessions).toEqual({ opened: 1, closed: 0 });

      await app.close();
      expect(server.sessions).toEqual({ opened: 1, closed: 1 });
      expect(alive(pid)).toBe(false);
    } finally {
      await server.close();
    }
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
