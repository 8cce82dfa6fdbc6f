"use client";

import type { AttachmentDto } from "@/lib/attachments/attachment-dto";
import { useAttachmentText } from "@/hooks/use-attachment-text";
import { CsvTable } from "./csv-table";
import { Markdown } from "./markdown";
import { previewFormat } from "./preview-format";

const count = (value: number) => value.toLocaleString("en-US");

/**
 * A text file or a PDF read in place, from the text Chorus keeps of it (a PDF is never shown by
 * the browser's viewer here): Markdown rendered (no raw HTML), CSV as a table, a PDF's text as
 * prose, anything else as written. The content scrolls on its own, so the dialog's buttons stay
 * in view; it takes keyboard focus so arrows scroll it.
 */
export function AttachmentPreview({ attachment }: { attachment: AttachmentDto }) {
  const { data, error, isPending } = useAttachmentText(attachment.id);
  if (isPending) return <p role="status" className="p-4 text-sm text-muted">Loading the preview…</p>;
  if (error) return <p role="alert" className="p-4 text-sm text-danger">{error.message}</p>;
  return (
    <div role="region" aria-label={`Preview of ${attachment.name}`} tabIndex={0} className="min-h-0 flex-1 overflow-auto p-4 focus-visible:-outline-offset-2">
      {data.truncated && (
        <p className="mb-2 rounded bg-amber-50 px-2 py-1 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Showing the first {count(data.text.length)} of {count(data.totalChars)} characters. Download the file for all of it.
        </p>
      )}
      <PreviewBody name={attachment.name} text={data.text} format={previewFormat(data.mediaType, data.kind)} />
    </div>
  );
}

function PreviewBody({ name, text, format }: { name: string; text: string; format: ReturnType<typeof previewFormat> }) {
  if (text.trim() === "") return <p className="text-sm text-muted">{name} has no text in it.</p>;
  switch (format.view) {
    case "markdown":
      return <Markdown text={text} />;
    case "table":
      return <CsvTable text={text} delimiter={format.delimiter} name={name} />;
    case "code":
    case "document":
      return <pre className={`text-sm break-words whitespace-pre-wrap ${format.view === "code" ? "font-mono" : "font-sans"}`}>{text}</pre>;
  }
}
