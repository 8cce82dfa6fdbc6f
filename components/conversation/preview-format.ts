import type { AttachmentKind } from "@/lib/attachments/attachment-kind";

/** How a preview lays out a file's text. */
export type PreviewFormat =
  | { view: "markdown" }
  | { view: "table"; delimiter: string }
  /** Plain text, logs, code, JSON: as written, in a monospace font. */
  | { view: "code" }
  /** A PDF's text layer: prose, in the body font. */
  | { view: "document" };

/** The layout for a file's sniffed type; anything without its own is shown as written. */
export function previewFormat(mediaType: string, kind: AttachmentKind): PreviewFormat {
  if (kind === "pdf") return { view: "document" };
  if (mediaType === "text/markdown") return { view: "markdown" };
  if (mediaType === "text/csv") return { view: "table", delimiter: "," };
  if (mediaType === "text/tab-separated-values") return { view: "table", delimiter: "\t" };
  return { view: "code" };
}

/** Whether a file has a preview: text files and PDFs (their kept text). */
export function hasPreview(kind: AttachmentKind): boolean {
  return kind === "text" || kind === "pdf";
}
