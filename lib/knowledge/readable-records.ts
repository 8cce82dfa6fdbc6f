// Relative imports only, and none of the server's modules: the file-text worker loads this file
// outside Next's bundle in tests and scripts (see file-text-worker.mjs).
import { parseCsv } from "../attachments/parse-csv";

/** What a file's records came to: their text, more than the cap, or why the file is refused (in words, after its name). */
export type Records = { kind: "text"; text: string } | { kind: "too_many_chars" } | { kind: "refused"; reason: string };

const TOO_MANY_CHARS = { kind: "too_many_chars" } as const;

// Records are a blank line apart: the chunker keeps a paragraph whole, so a chunk of rows or
// records never cuts one in half and each keeps the names of its values.
const RECORD_BREAK = "\n\n";

/** Appends records while the text stays within `maxChars`. */
class RecordText {
  private readonly parts: string[] = [];
  private length = 0;
  constructor(private readonly maxChars: number) {}

  add(record: string): boolean {
    if (!record) return true;
    this.length += (this.parts.length > 0 ? RECORD_BREAK.length : 0) + record.length;
    this.parts.push(record);
    return this.length <= this.maxChars;
  }

  records(): Records {
    return { kind: "text", text: this.parts.join(RECORD_BREAK) };
  }
}

const oneLine = (value: string) => value.replace(/\s*\n\s*/g, " ").trim();

/**
 * A CSV (or TSV) file as one line per row, each value named by its column: "Name: Ada; Team:
 * Platform". Empty values are left out; a value past the header's columns is "Column N". A file
 * with a header only gives its column names.
 */
export function csvRecords(text: string, { delimiter, maxChars }: { delimiter: string; maxChars: number }): Records {
  const { header, rows } = parseCsv(text, { delimiter });
  const names = header.map((name, index) => oneLine(name) || `Column ${index + 1}`);
  const out = new RecordText(maxChars);
  if (rows.length === 0) return out.add(names.length > 0 ? `Columns: ${names.join("; ")}` : "") ? out.records() : TOO_MANY_CHARS;
  for (const row of rows) {
    const fields = row.flatMap((value, index) => (value.trim() ? [`${names[index] ?? `Column ${index + 1}`}: ${oneLine(value)}`] : []));
    if (!out.add(fields.join("; "))) return TOO_MANY_CHARS;
  }
  return out.records();
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// Deeper than any real document's records; a hostile file nested a million deep would otherwise
// overflow the stack.
const MAX_DEPTH = 100;

const isRecord = (value: Json): value is { [key: string]: Json } => typeof value === "object" && value !== null && !Array.isArray(value);
const scalar = (value: Json) => (typeof value === "string" ? oneLine(value) : String(value));

/**
 * A JSON file as readable records: an array of objects (at the top or under a key) gives one record
 * per element; within a record, each value is a "path: value" line (`address.city: Paris`,
 * `tags: red, green`). Invalid JSON is refused with the line and column where it goes wrong.
 */
export function jsonRecords(text: string, { maxChars }: { maxChars: number }): Records {
  let value: Json;
  try {
    value = JSON.parse(text) as Json;
  } catch {
    return { kind: "refused", reason: `is not valid JSON: ${whereJsonFails(text)}. Fix it and upload it again.` };
  }
  const out = new RecordText(maxChars);

  /** The lines of one value under `path`. */
  const lines = (item: Json, path: string, depth: number): string[] => {
    if (depth > MAX_DEPTH) throw new TooDeep();
    const label = (line: string) => (path ? `${path}: ${line}` : line);
    if (Array.isArray(item)) {
      if (item.every((element) => !isRecord(element) && !Array.isArray(element))) return item.length > 0 ? [label(item.map(scalar).join(", "))] : [];
      return item.flatMap((element, index) => lines(element, `${path}[${index}]`, depth + 1));
    }
    if (isRecord(item)) return Object.entries(item).flatMap(([key, child]) => lines(child, path ? `${path}.${key}` : key, depth + 1));
    return [label(scalar(item))];
  };

  /** Adds `item` as records: an array of objects one each, an object's arrays of objects one per element after its other values. */
  const records = (item: Json, heading: string, depth: number): boolean => {
    if (depth > MAX_DEPTH) throw new TooDeep();
    if (Array.isArray(item) && item.some(isRecord)) return item.every((element, index) => records(element, heading ? `${heading}[${index}]` : "", depth + 1));
    if (!isRecord(item)) return out.add([heading, ...lines(item, "", depth)].filter(Boolean).join("\n"));
    const nested = Object.entries(item).filter(([, child]) => Array.isArray(child) && child.some(isRecord));
    const own = Object.entries(item).filter(([, child]) => !(Array.isArray(child) && child.some(isRecord)));
    const ownLines = own.flatMap(([key, child]) => lines(child, key, depth + 1));
    if (ownLines.length > 0 && !out.add([heading, ...ownLines].filter(Boolean).join("\n"))) return false;
    return nested.every(([key, child]) => records(child, heading ? `${heading}.${key}` : key, depth + 1));
  };

  try {
    return records(value, "", 0) ? out.records() : TOO_MANY_CHARS;
  } catch (error) {
    if (error instanceof TooDeep) return { kind: "refused", reason: `nests values more than ${MAX_DEPTH} levels deep; flatten it and upload it again.` };
    throw error;
  }
}

/** Thrown out of the recursion at MAX_DEPTH, and answered as a refusal. */
class TooDeep extends Error {}

const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERAL = /true|false|null/y;
const SPACE = /[ \t\n\r]*/y;

/**
 * Where the text stops being JSON, in words ("line 3, column 7: unexpected "}""). V8's message
 * names the place only for some errors, so the text is scanned again (only after a failed parse)
 * without recursion, however deep it nests.
 */
export function whereJsonFails(text: string): string {
  let at = 0;
  const match = (pattern: RegExp) => {
    pattern.lastIndex = at;
    if (!pattern.test(text)) return false;
    at = pattern.lastIndex;
    return true;
  };
  const closers: string[] = [];
  let expecting: "value" | "value or end" | "key" | "key or end" | "colon" | "next" = "value";
  for (;;) {
    match(SPACE);
    const char = text[at];
    if (expecting === "value" || expecting === "value or end") {
      if (expecting === "value or end" && char === "]") {
        closers.pop();
        at += 1;
        expecting = "next";
      } else if (char === "{" || char === "[") {
        closers.push(char === "{" ? "}" : "]");
        at += 1;
        expecting = char === "{" ? "key or end" : "value or end";
      } else if (match(STRING) || match(NUMBER) || match(LITERAL)) expecting = "next";
      else break;
    } else if (expecting === "key" || expecting === "key or end") {
      if (expecting === "key or end" && char === "}") {
        closers.pop();
        at += 1;
        expecting = "next";
      } else if (match(STRING)) expecting = "colon";
      else break;
    } else if (expecting === "colon") {
      if (char !== ":") break;
      at += 1;
      expecting = "value";
    } else {
      const closer = closers.at(-1);
      if (closer === undefined) {
        if (at === text.length) return "it could not be parsed";
        break;
      }
      if (char === ",") expecting = closer === "}" ? "key" : "value";
      else if (char === closer) closers.pop();
      else break;
      at += 1;
    }
  }
  if (at >= text.length) return "it ends before its last value is complete";
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  const column = at - before.lastIndexOf("\n");
  return `line ${line.toLocaleString("en-US")}, column ${column.toLocaleString("en-US")}: unexpected ${JSON.stringify(text.slice(at, at + 10).split("\n")[0])}`;
}
