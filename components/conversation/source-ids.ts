/** A reply's sources as its text's [n] markers need them. */
export interface Citations {
  messageId: string;
  /** The n-th source's document name at n − 1. */
  documents: readonly string[];
}

/** The element of a reply's n-th source under it, which its [n] markers move focus to. */
export function sourceElementId(messageId: string, number: number): string {
  return `source-${messageId}-${number}`;
}
