import type { PhrasingContent, Root } from "mdast";
import { findAndReplace } from "mdast-util-find-and-replace";

/** `[1]`, or several numbers in one pair of brackets: `[1, 2]`. */
const MARKER = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\]/g;

/** What the `sup` a marker becomes carries: the source's number. */
export const SOURCE_PROPERTY = "data-source";

/**
 * Turns the `[n]` a reply cites its sources with into `<sup data-source="n">` elements (rendered
 * as links to the source by the Markdown component), for 1 ≤ n ≤ `count` only: any other number
 * stays plain text. Prose only: code is not a text node, and text inside links is left alone.
 */
export function remarkSourceMarkers({ count }: { count: number }) {
  return (tree: Root) => {
    if (count === 0) return;
    findAndReplace(
      tree,
      [
        [
          new RegExp(MARKER.source, MARKER.flags),
          (match: string, list: string): PhrasingContent[] | false => {
            const numbers = list.split(",").map((part) => Number(part.trim()));
            if (!numbers.some((number) => number >= 1 && number <= count)) return false;
            // One number: the whole "[1]" is the link. Several: each number is, between the brackets and commas kept as text.
            if (numbers.length === 1) return [marker(numbers[0]!, match)];
            return [
              { type: "text", value: "[" },
              ...numbers.flatMap((number, index): PhrasingContent[] => [
                ...(index > 0 ? [{ type: "text" as const, value: ", " }] : []),
                number >= 1 && number <= count ? marker(number, String(number)) : { type: "text", value: String(number) },
              ]),
              { type: "text", value: "]" },
            ];
          },
        ],
      ],
      { ignore: ["link", "linkReference"] },
    );
  };
}

function marker(number: number, label: string): PhrasingContent {
  // A phrasing node with children, rendered as <sup>: a text node alone would merge back into its neighbours.
  return { type: "emphasis", children: [{ type: "text", value: label }], data: { hName: "sup", hProperties: { [SOURCE_PROPERTY]: String(number) } } };
}
