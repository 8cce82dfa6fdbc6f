// Chorus's demo MCP server over stdio: the project's notes (search_notes, add_note) and a clock
// (current_time), so agents' tools can be tried without installing anything. Plain JavaScript:
// `node scripts/demo-mcp-server.mjs [--notes-file PATH]` runs it with no build step.
// The notes live in a JSON file: --notes-file, else CHORUS_NOTES_FILE, else .data/demo-notes.json
// (the app's default data directory), relative to the working directory.
// stdout carries the protocol only; anything else goes to stderr.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const MAX_NOTE_CHARS = 2_000;
const MAX_QUERY_CHARS = 200;
// The best matches are enough for an answer; a model's context has no room for a whole notebook.
const MAX_RESULTS = 20;
// Words too common to say anything about a note ("the staging URL" looks for "staging" and "url").
const STOPWORDS = new Set(["a", "an", "and", "about", "any", "are", "for", "in", "is", "it", "my", "of", "on", "or", "our", "the", "to", "what", "who", "with"]);
const WORD = /[\p{L}\p{N}]+/gu;
const STARTER_NOTES = [
  "Release checklist: npm test passes, the changelog is updated, the release is tagged, and it is announced in #general.",
  "On call this week: Mia Member (backup: Adam Admin).",
  "Staging runs at https://staging.chorus.local; sign in there with the demo accounts.",
];
const MILLISECONDS = /\.\d{3}Z$/;
const spokenTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "short", timeZone: "UTC" });

const { values: options } = parseArgs({ options: { "notes-file": { type: "string" } } });
const notesFile = path.resolve(options["notes-file"] ?? process.env.CHORUS_NOTES_FILE ?? path.join(".data", "demo-notes.json"));

/** @typedef {{ id: number, text: string, createdAt: string }} Note */

/** @returns {Promise<Note[]>} The notes; a file that does not exist yet is started with the starter notes. */
async function readNotes() {
  let text;
  try {
    text = await readFile(notesFile, "utf8");
  } catch (error) {
    if (error?.code !== "ENOENT") throw new Error(`cannot read the notes file ${notesFile}: ${error.message}`);
    const createdAt = new Date().toISOString();
    const starters = STARTER_NOTES.map((note, index) => ({ id: index + 1, text: note, createdAt }));
    await writeNotes(starters);
    return starters;
  }
  try {
    const { notes } = JSON.parse(text);
    if (!Array.isArray(notes)) throw new Error("it has no notes list");
    return notes;
  } catch (error) {
    throw new Error(`the notes file ${notesFile} is damaged (${error.message}); fix it or delete it to start again`);
  }
}

/** Written to a temporary file and renamed over the old one: a crash never leaves half a file. */
async function writeNotes(notes) {
  await mkdir(path.dirname(notesFile), { recursive: true });
  const temporary = `${notesFile}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify({ notes }, null, 2)}\n`, "utf8");
    await rename(temporary, notesFile);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new Error(`cannot save the notes file ${notesFile}: ${error.message}`);
  }
}

// Calls may overlap; each read-change-write waits for the one before, so no note is lost.
let queue = Promise.resolve();
function serially(work) {
  const run = queue.then(work);
  queue = run.catch(() => {});
  return run;
}

const wordsOf = (text) => (text.toLowerCase().match(WORD) ?? []);
const textResult = (text) => ({ content: [{ type: "text", text }] });
const errorResult = (text) => ({ content: [{ type: "text", text }], isError: true });
const describeNote = (note) => `- #${note.id} (${note.createdAt.slice(0, 10)}): ${note.text}`;

/** Notes holding any of the query's words (whole words, any case), the ones holding most first, then the newest. */
function searchNotes(notes, query) {
  const all = wordsOf(query);
  const words = all.filter((word) => !STOPWORDS.has(word));
  const wanted = new Set(words.length > 0 ? words : all);
  const scored = notes
    .map((note) => {
      const own = new Set(wordsOf(note.text));
      return { note, hits: [...wanted].filter((word) => own.has(word)).length };
    })
    .filter(({ hits }) => hits > 0)
    .sort((a, b) => b.hits - a.hits || b.note.id - a.note.id);
  return scored.map(({ note }) => note);
}

const server = new McpServer({ name: "chorus-demo-notes", version: "1.0.0" });

server.registerTool(
  "search_notes",
  {
    description: `Search the project's notes. Returns the notes holding any word of the query (any case), best matches first (at most ${MAX_RESULTS}).`,
    inputSchema: { query: z.string().min(1, "the query is empty: say what to look for").max(MAX_QUERY_CHARS, `a query holds at most ${MAX_QUERY_CHARS} characters`) },
    annotations: { readOnlyHint: true },
  },
  async ({ query }) => {
    if (wordsOf(query).length === 0) return errorResult("The query has no words to look for: use letters or digits.");
    const found = searchNotes(await serially(readNotes), query);
    if (found.length === 0) return textResult(`No notes match "${query}".`);
    const more = found.length > MAX_RESULTS ? [`(and ${found.length - MAX_RESULTS} more: search for more words to narrow it)`] : [];
    return textResult([`${found.length === 1 ? "1 note matches" : `${found.length} notes match`} "${query}":`, ...found.slice(0, MAX_RESULTS).map(describeNote), ...more].join("\n"));
  },
);

server.registerTool(
  "add_note",
  {
    description: `Save a new note in the project's notes (1 to ${MAX_NOTE_CHARS.toLocaleString("en")} characters).`,
    inputSchema: { text: z.string().min(1, "the note is empty: give its text").max(MAX_NOTE_CHARS, `a note holds at most ${MAX_NOTE_CHARS.toLocaleString("en")} characters`) },
    annotations: { readOnlyHint: false, destructiveHint: false },
  },
  async ({ text }) => {
    const note = text.trim();
    if (note === "") return errorResult("The note is empty: give its text.");
    const id = await serially(async () => {
      const notes = await readNotes();
      const next = Math.max(0, ...notes.map((existing) => existing.id)) + 1;
      await writeNotes([...notes, { id: next, text: note, createdAt: new Date().toISOString() }]);
      return next;
    });
    return textResult(`Saved note #${id}.`);
  },
);

server.registerTool(
  "current_time",
  { description: "The current date and time in UTC: ISO 8601 and in words.", inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => {
    const now = new Date();
    return textResult(`${now.toISOString().replace(MILLISECONDS, "Z")} (${spokenTime.format(now)} UTC)`);
  },
);

await server.connect(new StdioServerTransport());
