/**
 * ts_headline marks each match with these two characters. The text it is given has them removed
 * first (`translate(content, chr(2) || chr(3), '')`: people cannot type control characters, but a
 * model's reply might hold any), so every one in its output is a marker, and a snippet reaches
 * the page as text, never as HTML.
 */
const MATCH_START = "\u0002";
const MATCH_END = "\u0003";

/**
 * ts_headline's options: up to two passages of 8 to 24 words around the matches, joined by an
 * ellipsis; a short message comes whole (no short words dropped at its ends).
 */
export const HEADLINE_OPTIONS = `StartSel=${MATCH_START}, StopSel=${MATCH_END}, MinWords=8, MaxWords=24, ShortWord=0, MaxFragments=2, FragmentDelimiter=" … "`;

/** A piece of a snippet: a match to highlight, or the text around it. */
export interface SnippetPart {
  text: string;
  match: boolean;
}

/** ts_headline's output as pieces: the marked words become matches, the markers disappear. */
export function splitSnippet(headline: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  for (const piece of headline.split(new RegExp(`(${MATCH_START}[^${MATCH_END}]*${MATCH_END})`))) {
    if (piece.startsWith(MATCH_START)) parts.push({ text: piece.slice(1, -1), match: true });
    else if (piece) parts.push({ text: piece.replaceAll(MATCH_START, "").replaceAll(MATCH_END, ""), match: false });
  }
  return parts.filter((part) => part.text !== "");
}
