"use client";

import { useState } from "react";
import type { AttachmentDto } from "@/lib/attachments/attachment-dto";
import { formatBytes } from "@/lib/attachments/format-bytes";
import { AttachmentDialog } from "./attachment-dialog";
import { hasPreview } from "./preview-format";

/**
 * A message's files: images as thumbnails that open larger in a dialog, other files as cards with
 * their name (a link to the file), type and size; text files and PDFs also open in a preview
 * dialog that shows their text.
 */
export function MessageAttachments({ attachments }: { attachments: AttachmentDto[] }) {
  const [shown, setShown] = useState<AttachmentDto | null>(null);
  if (attachments.length === 0) return null;
  return (
    <>
      <ul aria-label="Attached files" className="mt-1 flex flex-wrap items-start gap-2">
        {attachments.map((attachment) =>
          attachment.thumbnailUrl ? (
            <li key={attachment.id}>
              <button type="button" onClick={() => setShown(attachment)} aria-label={`Enlarge ${attachment.name}`} className="block overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700">
                {/* eslint-disable-next-line @next/next/no-img-element -- served by our own route, sized by the thumbnail */}
                <img src={attachment.thumbnailUrl} alt={attachment.name} width={thumbnailWidth(attachment)} height={160} className="h-40 w-auto max-w-full object-cover" />
              </button>
            </li>
          ) : (
            <li key={attachment.id} className="flex max-w-full flex-wrap items-center gap-x-2 gap-y-1 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
              <span aria-hidden="true" className="rounded bg-slate-200 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-muted-strong dark:bg-slate-800">
                {extensionOf(attachment)}
              </span>
              <a href={attachment.url} target={attachment.kind === "file" ? undefined : "_blank"} rel="noopener" className="min-w-0 max-w-full truncate font-medium text-link hover:underline">
                {attachment.name}
              </a>
              <span className="text-xs text-muted">
                {attachment.mediaType} · {formatBytes(attachment.bytes)}
              </span>
              {hasPreview(attachment.kind) && (
                <button type="button" onClick={() => setShown(attachment)} className="rounded border border-slate-300 px-2 py-0.5 text-xs font-medium hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
                  Preview<span className="sr-only"> {attachment.name}</span>
                </button>
              )}
            </li>
          ),
        )}
      </ul>
      <AttachmentDialog attachment={shown} onClose={() => setShown(null)} />
    </>
  );
}

function thumbnailWidth({ width, height }: AttachmentDto): number {
  return width && height ? Math.round((160 * width) / height) : 160;
}

function extensionOf({ name, kind }: AttachmentDto): string {
  return /\.([a-z0-9]{1,5})$/i.exec(name)?.[1] ?? kind;
}
