"use client";

import { useRef, useState } from "react";
import type { AttachmentDto } from "@/lib/attachments/attachment-dto";
import { formatBytes } from "@/lib/attachments/format-bytes";

/**
 * A message's files: images as thumbnails that open larger in a dialog (Escape closes it), other
 * files as cards with their name, type and size; PDFs and text open in the browser's own viewer.
 */
export function MessageAttachments({ attachments }: { attachments: AttachmentDto[] }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [shown, setShown] = useState<AttachmentDto | null>(null);
  if (attachments.length === 0) return null;
  const open = (attachment: AttachmentDto) => {
    setShown(attachment);
    dialog.current?.showModal();
  };
  return (
    <>
      <ul aria-label="Attached files" className="mt-1 flex flex-wrap gap-2">
        {attachments.map((attachment) =>
          attachment.thumbnailUrl ? (
            <li key={attachment.id}>
              <button type="button" onClick={() => open(attachment)} aria-label={`Enlarge ${attachment.name}`} className="block overflow-hidden rounded-lg border border-slate-200 dark:border-slate-700">
                {/* eslint-disable-next-line @next/next/no-img-element -- served by our own route, sized by the thumbnail */}
                <img src={attachment.thumbnailUrl} alt={attachment.name} width={thumbnailWidth(attachment)} height={160} className="h-40 w-auto max-w-full object-cover" />
              </button>
            </li>
          ) : (
            <li key={attachment.id} className="flex max-w-full items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-700">
              <span aria-hidden="true" className="rounded bg-slate-200 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-muted-strong dark:bg-slate-800">
                {extensionOf(attachment)}
              </span>
              <a href={attachment.url} target={attachment.kind === "file" ? undefined : "_blank"} rel="noopener" className="min-w-0 truncate font-medium text-link hover:underline">
                {attachment.name}
              </a>
              <span className="shrink-0 text-xs text-muted">
                {attachment.mediaType} · {formatBytes(attachment.bytes)}
              </span>
            </li>
          ),
        )}
      </ul>
      <dialog ref={dialog} aria-label={shown?.name ?? "Image"} onClose={() => setShown(null)} className="max-h-[95vh] max-w-[95vw] rounded-lg bg-white p-2 backdrop:bg-black/70 dark:bg-slate-900">
        {shown && (
          <figure>
            {/* eslint-disable-next-line @next/next/no-img-element -- the full image, served by our own route */}
            <img src={shown.url} alt={shown.name} className="max-h-[80vh] max-w-full object-contain" />
            <figcaption className="mt-1 flex items-center gap-3 text-sm">
              <span className="min-w-0 flex-1 truncate">{shown.name}</span>
              <a href={shown.url} download={shown.name} className="text-link hover:underline">
                Download
              </a>
              <button type="button" onClick={() => dialog.current?.close()} className="rounded border border-slate-300 px-2 py-0.5 dark:border-slate-600">
                Close
              </button>
            </figcaption>
          </figure>
        )}
      </dialog>
    </>
  );
}

function thumbnailWidth({ width, height }: AttachmentDto): number {
  return width && height ? Math.round((160 * width) / height) : 160;
}

function extensionOf({ name, kind }: AttachmentDto): string {
  return /\.([a-z0-9]{1,5})$/i.exec(name)?.[1] ?? kind;
}
