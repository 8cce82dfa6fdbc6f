/**
 * The start of a text on one line, for previews, snippets and quotes: runs of white space become
 * one space, and a text longer than `max` characters is cut to at most `max` with "…", between
 * words when a word ends in its second half (a long word is cut where the room ends).
 */
export function lineStart(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line.length <= max) return line;
  const cut = line.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
