import type { PhrasingContent, Root } from "mdast";
import { findAndReplace } from "mdast-util-find-and-replace";
import { MENTION_PATTERN } from "@/lib/conversations/parse-mentions";

export interface MentionHandles {
  /** Handles of the conversation's participants (lowercase): only these are highlighted. */
  known: ReadonlySet<string>;
  /** The reader's own handle: highlighted more strongly. */
  mine: string | null;
}

/**
 * Marks @mentions of participants as `<span class="mention">` (and `mention-me` for the reader)
 * in prose only: code spans and blocks are not text nodes, so they are left alone, like the
 * server's own mention parsing.
 */
export function remarkMentions({ known, mine }: MentionHandles) {
  return (tree: Root) => {
    findAndReplace(tree, [
      [
        new RegExp(MENTION_PATTERN.source, MENTION_PATTERN.flags),
        (_match: string, prefix: string, handle: string): PhrasingContent[] | false => {
          const lower = handle.toLowerCase();
          if (!known.has(lower)) return false;
          const className = lower === mine ? ["mention", "mention-me"] : ["mention"];
          // A phrasing node with children (text nodes next to each other would be merged back);
          // rendered as a span, not as emphasis.
          const mention: PhrasingContent = { type: "emphasis", children: [{ type: "text", value: `@${handle}` }], data: { hName: "span", hProperties: { className } } };
          return prefix ? [{ type: "text", value: prefix }, mention] : [mention];
        },
      ],
    ]);
  };
}
