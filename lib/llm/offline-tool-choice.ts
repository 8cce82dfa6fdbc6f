import type { ToolSpec } from "./types";

/** A tool call the offline model makes: the tool's name as offered, and its arguments as JSON text. */
export interface OfflineToolCall {
  name: string;
  arguments: string;
}

type Intent = "time" | "search" | "add";

/** What a word of a tool's own name (after `server__`) must be to serve an intent. */
const INTENT_WORDS: Record<Intent, (word: string) => boolean> = {
  time: (word) => word.includes("time") || word.includes("clock") || word === "date" || word === "now",
  search: (word) => ["search", "find", "lookup", "grep"].includes(word),
  add: (word) => ["add", "create", "write", "save", "append"].includes(word),
};

// Mentions, greetings and "please / can you" before the request itself.
const LEAD_IN = /^(?:\s*(?:@[\w.-]+|hey|hi|hello|ok|okay|so|please|kindly|(?:can|could|would|will)\s+you)\b[\s,:!]*)*/i;
const EXPLICIT = /^use\s+([\w.-]+)(?:\s+with\s+([\s\S]+?))?\s*$/i;
const ADD_PATTERNS = [
  /^(?:add|save|write|make|take|put)\s+(?:a\s+|this\s+|the\s+)?note(?:\s*[:\-–—]\s*|\s+(?:saying|that)\s+|\s+)([\s\S]+)$/i,
  /^note(?:\s*:|\s+that\b|\s+down\b:?)\s*([\s\S]+)$/i,
  /^(?:remember|add|save|put)\s+(?:in|to|into)\s+(?:the\s+)?notes\s*[:,\-–—]?\s*([\s\S]+)$/i,
];
const SEARCH_PATTERNS = [
  /^(?:search|check)\s+(?:the\s+|my\s+|our\s+)?notes\s+(?:for|about)\s+([\s\S]+)$/i,
  /^(?:find|look\s+for|show\s+me)\s+(?:the\s+|any\s+)?notes?\s+(?:about|on|for|with|mentioning)\s+([\s\S]+)$/i,
  /^look\s+up\s+([\s\S]+?)\s+in\s+the\s+notes$/i,
  /^what\s+do\s+(?:the\s+|our\s+)?notes\s+say\s+about\s+([\s\S]+)$/i,
];
const TIME_PATTERN =
  /^(?:what(?:['’]s|\s+is)\s+the\s+(?:current\s+)?(?:time|date)|(?:do\s+you\s+know\s+)?what\s+(?:time|day|date)\s+(?:is\s+it|it\s+is)|(?:tell|give|show)\s+me\s+the\s+(?:current\s+)?(?:time|date)|(?:the\s+)?(?:current\s+)?(?:time|date))(?:\s+(?:now|today|please))?$/i;
const TRAILING_PUNCTUATION = /[\s?.!]+$/;
const QUOTES = /^["'“‘]([\s\S]*)["'”’]$/;
const CAMEL_HUMP = /([a-z\d])([A-Z])/g;
const NAME_SEPARATORS = /[^a-z\d]+/;

/**
 * The tool call a message asks for plainly, among the offered tools, or null. Understood: "use
 * <tool> with {json}" (the tool as offered or by its own name), the time or date, searching the
 * notes ("search the notes for X", "find notes about X", "look up X in the notes") and adding one
 * ("add a note: X", "note that X", "remember in the notes: X"). A tool serves an intent by the
 * words of its own name, whatever its server is called.
 */
export function chooseOfflineTool(message: string, tools: readonly ToolSpec[]): OfflineToolCall | null {
  if (tools.length === 0) return null;
  const request = message.replace(LEAD_IN, "").trim();
  const explicit = EXPLICIT.exec(request);
  if (explicit) return explicitCall(explicit[1]!, explicit[2], tools);
  const sentence = request.replace(TRAILING_PUNCTUATION, "");
  const text = firstCapture(ADD_PATTERNS, request)?.trim();
  if (text) return callOf(toolFor("add", tools), { preferred: "text", value: unquoted(text) });
  const query = firstCapture(SEARCH_PATTERNS, sentence)?.trim();
  if (query) return callOf(toolFor("search", tools), { preferred: "query", value: unquoted(query) });
  if (TIME_PATTERN.test(sentence)) return callOf(toolFor("time", tools));
  return null;
}

/** A tool's own name: what follows its server's `server__` prefix. */
export function baseToolName(name: string): string {
  const split = name.indexOf("__");
  return split === -1 ? name : name.slice(split + 2);
}

function explicitCall(named: string, json: string | undefined, tools: readonly ToolSpec[]): OfflineToolCall | null {
  const wanted = named.toLowerCase();
  const tool = tools.find((candidate) => candidate.name.toLowerCase() === wanted) ?? tools.find((candidate) => baseToolName(candidate.name).toLowerCase() === wanted);
  // The arguments go as written: checking them is the tool loop's work, and a mistake shows how it answers.
  return tool ? { name: tool.name, arguments: json?.trim() ?? "{}" } : null;
}

function toolFor(intent: Intent, tools: readonly ToolSpec[]): ToolSpec | undefined {
  const serving = tools.filter((tool) => nameWords(baseToolName(tool.name)).some(INTENT_WORDS[intent]));
  // Asked about notes, a notes tool wins over another server's search or add.
  return serving.find((tool) => nameWords(baseToolName(tool.name)).some((word) => word.startsWith("note"))) ?? serving[0];
}

/** The call, its one text argument (if any) named as the tool names it. */
function callOf(tool: ToolSpec | undefined, argument?: { preferred: string; value: string }): OfflineToolCall | null {
  if (!tool) return null;
  const args = argument ? { [argumentName(tool, argument.preferred)]: argument.value } : {};
  return { name: tool.name, arguments: JSON.stringify(args) };
}

/** `preferred` when the tool takes it, else its first required (then first) string argument: another server's "content" or "q". */
function argumentName(tool: ToolSpec, preferred: string): string {
  const properties = tool.parameters["properties"];
  if (typeof properties !== "object" || properties === null) return preferred;
  const declared = properties as Record<string, { type?: unknown }>;
  if (preferred in declared) return preferred;
  const required = Array.isArray(tool.parameters["required"]) ? (tool.parameters["required"] as unknown[]) : [];
  const strings = Object.keys(declared).filter((name) => declared[name]?.type === "string");
  return strings.find((name) => required.includes(name)) ?? strings[0] ?? preferred;
}

/** `search_notes`, `searchNotes` and `search-notes` all read as ["search", "notes"]. */
function nameWords(name: string): string[] {
  return name
    .replace(CAMEL_HUMP, "$1 $2")
    .toLowerCase()
    .split(NAME_SEPARATORS)
    .filter(Boolean);
}

function firstCapture(patterns: readonly RegExp[], text: string): string | undefined {
  for (const pattern of patterns) {
    const captured = pattern.exec(text)?.[1];
    if (captured !== undefined) return captured;
  }
  return undefined;
}

function unquoted(text: string): string {
  return QUOTES.exec(text)?.[1] ?? text;
}
