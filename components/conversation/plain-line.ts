/** One line of markdown that is plain text: a paragraph, or a list item holding only text. */
export type PlainLine = { kind: "paragraph"; text: string } | { kind: "ordered"; start: number; text: string } | { kind: "bullet"; text: string };

/**
 * What markdown (CommonMark, GFM, our @mentions) may read as syntax anywhere in a line: escapes,
 * entities, code, emphasis and strikethrough, links and images, footnotes, HTML and autolinks,
 * tables, headings, mentions and emails, `http://` and `www.` links; an underscore unless inside a
 * word (where it never starts or ends emphasis, as in SOME_NAME); and control characters (line
 * breaks, tabs, NUL, which the parser changes).
 */
const SYNTAX = /[\\&`*~[\]<>!|#@\u0000-\u001f\u007f]|:\/\/|www\.|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/iu;
const ORDERED = /^(\d{1,9})[.)] /;
const BULLET = /^[-+] /;
/** What would start a block other than a paragraph at the line's start: a list marker (possibly empty), a thematic break, a setext underline, a quote. */
const BLOCK_START = /^(?:\d{1,9}[.)](?:\s|$)|[-+=>])/;

/**
 * The line as plain text when parsing it as markdown could only give that text in a paragraph or
 * a one-item list (a single line, nothing markdown reads as syntax), without the spaces the parser
 * drops at its end (a streamed line often ends with one); null otherwise. Such a line is shown
 * without the parser: a streamed reply's line being written is parsed again on every piece, and
 * most lines are plain.
 */
export function plainLine(line: string): PlainLine | null {
  if (SYNTAX.test(line)) return null;
  const ordered = ORDERED.exec(line);
  const marker = ordered ? ordered[0].length : BULLET.test(line) ? 2 : 0;
  const text = line.slice(marker).replace(/ +$/, "");
  if (!plainText(text)) return null;
  if (ordered) return { kind: "ordered", start: Number(ordered[1]), text };
  return marker === 0 ? { kind: "paragraph", text } : { kind: "bullet", text };
}

/** Text that stays a paragraph's text: something, not starting another block, no other space at either end. */
function plainText(text: string): boolean {
  return text.length > 0 && !/^\s|\s$/.test(text) && !BLOCK_START.test(text);
}
