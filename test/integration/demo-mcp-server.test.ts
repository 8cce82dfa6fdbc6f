import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readEnv } from "@/lib/config/env";
import { offlineToolCall } from "@/lib/llm/offline-provider";
import { checkToolArguments } from "@/lib/mcp/check-tool-arguments";
import { toolsForTurn } from "@/lib/mcp/tools-for-turn";
import { createRuntimeFor } from "@/lib/runtime/runtime";
import { prepareFirstStart } from "@/lib/seed/prepare-first-start";
import { createTestDatabase } from "../support/test-database";

const SCRIPT = "scripts/demo-mcp-server.mjs";

/** Chorus's own demo MCP server, started for real over stdio as the pool starts it. */
describe("the demo notes server", () => {
  let dir: string;
  let notesFile: string;
  let client: Client;

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    const text = result.content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");
    return { text, isError: result.isError ?? false };
  };

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "chorus-demo-notes-"));
    // A folder that does not exist yet: the server makes it.
    notesFile = path.join(dir, "data", "demo-notes.json");
    client = new Client({ name: "demo-notes-test", version: "1.0.0" });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [SCRIPT], env: { CHORUS_NOTES_FILE: notesFile }, stderr: "pipe" }));
  });
  afterAll(async () => {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("lists search_notes, add_note and current_time, with schemas Chorus checks arguments against", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["add_note", "current_time", "search_notes"]);
    const addNote = tools.find((tool) => tool.name === "add_note")!;
    expect(addNote.inputSchema).toMatchObject({ type: "object", required: ["text"] });
    expect(checkToolArguments({ name: "add_note", parameters: addNote.inputSchema }, JSON.stringify({ text: "x".repeat(2_001) }))).toMatchObject({ ok: false, result: expect.stringMatching(/^Not run: invalid arguments: text: /) });
    expect(checkToolArguments({ name: "add_note", parameters: addNote.inputSchema }, JSON.stringify({ text: "Ship on Friday" }))).toMatchObject({ ok: true });
  });

  it("starts with the starter notes, saves a note to its file atomically and finds it by any of its words, in any case", async () => {
    expect(await call("search_notes", { query: "Who is ON CALL?" })).toEqual({ text: expect.stringMatching(/^1 note matches "Who is ON CALL\?":\n- #2 \(\d{4}-\d\d-\d\d\): On call this week: Mia Member/), isError: false });

    expect(await call("add_note", { text: "  Deploy freeze starts Thursday.  " })).toEqual({ text: "Saved note #4.", isError: false });
    const found = await call("search_notes", { query: "thursday FREEZE" });
    expect(found.text.split("\n")).toEqual(['1 note matches "thursday FREEZE":', expect.stringMatching(/^- #4 \(\d{4}-\d\d-\d\d\): Deploy freeze starts Thursday\.$/)]);
    expect(await call("search_notes", { query: "kangaroo" })).toEqual({ text: 'No notes match "kangaroo".', isError: false });

    const stored = JSON.parse(await readFile(notesFile, "utf8")) as { notes: { id: number; text: string }[] };
    expect(stored.notes.map((note) => note.id)).toEqual([1, 2, 3, 4]);
    expect(stored.notes[3]!.text).toBe("Deploy freeze starts Thursday.");
    // Written through a temporary file renamed over it: none is left behind.
    expect(await readdir(path.dirname(notesFile))).toEqual(["demo-notes.json"]);
  });

  it("refuses what it cannot use with an error result that says why, and saves nothing", async () => {
    expect(await call("add_note", { text: "x".repeat(2_001) })).toEqual({ text: expect.stringContaining("a note holds at most 2,000 characters"), isError: true });
    expect(await call("add_note", { text: "" })).toEqual({ text: expect.stringContaining("the note is empty: give its text"), isError: true });
    expect(await call("add_note", { text: "   " })).toEqual({ text: "The note is empty: give its text.", isError: true });
    expect(await call("search_notes", {})).toMatchObject({ isError: true, text: expect.stringContaining("query") });
    expect(await call("search_notes", { query: "?!" })).toEqual({ text: "The query has no words to look for: use letters or digits.", isError: true });
    const stored = JSON.parse(await readFile(notesFile, "utf8")) as { notes: unknown[] };
    expect(stored.notes).toHaveLength(4);
  });

  it("tells the current time in ISO 8601 UTC and in words", async () => {
    const { text, isError } = await call("current_time");
    expect(isError).toBe(false);
    expect(text).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ \(\w+,? \d{1,2} \w+ \d{4}(,| at) \d\d:\d\d UTC\)$/);
    expect(Math.abs(Date.parse(text.split(" ")[0]!) - Date.now())).toBeLessThan(60_000);
  });
});

/** SEED_DEMO=1: the notes server and Scout, reachable through the pool the way a turn reaches them. */
describe("the seeded demo notes server", () => {
  it("starts from the app's directory, gives Scout its tools (asking first only to write), takes the offline model's call, and is seeded once", async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), "chorus-demo-seed-"));
    const env = readEnv({ NODE_ENV: "test", DATA_DIR: dataDir, PORT: "0", SEED_DEMO: "1" });
    const db = await createTestDatabase();
    const runtime = createRuntimeFor(db, env);
    try {
      await prepareFirstStart({ env, db, auth: runtime.auth });
      const server = await db.prisma.mcpServer.findFirstOrThrow({ where: { name: "notes" } });
      expect(server).toMatchObject({ transport: "stdio", command: "node", args: [SCRIPT, "--notes-file", path.join(dataDir, "demo-notes.json")], envNames: [], encryptedEnv: null, enabled: true });
      const scout = await db.prisma.agent.findFirstOrThrow({ where: { handle: "scout" }, include: { participations: { include: { conversation: true } } } });
      expect(scout).toMatchObject({ displayName: "Scout", provider: "offline" });
      expect(scout.participations.map((participation) => participation.conversation.title).sort()).toEqual(["general", "random"]);

      const { tools, unavailable } = await toolsForTurn(db.prisma, runtime.mcp, { agentId: scout.id });
      expect(unavailable).toEqual([]);
      expect(tools.map(({ name, askFirst }) => ({ name, askFirst }))).toEqual([
        { name: "notes__add_note", askFirst: true },
        { name: "notes__current_time", askFirst: false },
        { name: "notes__search_notes", askFirst: false },
      ]);

      const call = offlineToolCall({ model: "offline", temperature: 0, maxOutputTokens: 100, tools, messages: [{ role: "user", content: "@scout add a note: Demo day is Friday." }] });
      expect(call).toEqual({ name: "notes__add_note", arguments: '{"text":"Demo day is Friday."}' });
      const tool = tools.find((offered) => offered.name === call!.name)!;
      const checked = checkToolArguments(tool, call!.arguments);
      if (!checked.ok) throw new Error(checked.result);
      expect(await runtime.mcp.callTool(tool.serverId, tool.toolName, checked.args)).toMatchObject({ content: [{ type: "text", text: "Saved note #4." }], isError: false });
      expect(await readFile(path.join(dataDir, "demo-notes.json"), "utf8")).toContain("Demo day is Friday.");

      const counts = async () => [await db.prisma.mcpServer.count(), await db.prisma.agentTool.count(), await db.prisma.agent.count()];
      const before = await counts();
      await prepareFirstStart({ env, db, auth: runtime.auth });
      expect(await counts()).toEqual(before);
    } finally {
      await runtime.mcp.close();
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    }
    // Three sign-ups (password hashing) and a server process: slow on a busy machine.
  }, 60_000);
});
