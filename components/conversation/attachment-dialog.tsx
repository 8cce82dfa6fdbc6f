"use client";

import { useId } from "react";
import type { AttachmentDto } from "@/lib/attachments/attachment-dto";
import { useModalDialog } from "@/components/ui/use-modal-dialog";
import { AttachmentPreview } from "./attachment-preview";

export const dialogFrame = "bg-white p-0 text-slate-900 backdrop:bg-black/70 dark:bg-slate-900 dark:text-slate-100";
// An image keeps its own size; a preview, like the app's other dialogs, fills a phone, and on a wider screen is a centred sheet as tall as its text (fit-content: "auto" would stretch a modal dialog from top to bottom).
const imageFrame = "m-auto max-h-[95vh] max-w-[95vw] rounded-lg";
export const sheetFrame = "m-0 h-full max-h-none w-full max-w-none sm:m-auto sm:h-fit sm:max-h-[90vh] sm:max-w-3xl sm:rounded-xl";

/**
 * One file shown over the conversation in a modal <dialog>: an image enlarged, or a text file's or
 * PDF's preview. The browser keeps focus inside it, Escape closes it and focus goes back to the
 * button that opened it; the Close button takes focus first, beside the file's name and a
 * download link.
 */
export function AttachmentDialog({ attachment, onClose }: { attachment: AttachmentDto | null; onClose: () => void }) {
  const { dialog, close, dismiss } = useModalDialog(attachment);
  const titleId = useId();
  const image = attachment?.kind === "image";
  return (
    <dialog ref={dialog} aria-labelledby={titleId} onClose={onClose} className={`${dialogFrame} ${image ? imageFrame : sheetFrame}`}>
      {attachment && (
        <div className={image ? "flex flex-col" : "flex h-full flex-col sm:max-h-[90vh]"}>
          <div className="flex items-center gap-3 border-b border-slate-200 px-4 py-2 dark:border-slate-800">
            <h2 id={titleId} className="min-w-0 flex-1 truncate font-semibold">
              {attachment.name}
            </h2>
            <a href={attachment.url} download={attachment.name} className="text-sm font-medium text-link hover:underline">
              Download
            </a>
            <button ref={close} type="button" onClick={dismiss} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
              Close
            </button>
          </div>
          {image ? (
            // eslint-disable-next-line @next/next/no-img-element -- the full image, served by our own route
            <img src={attachment.url} alt={attachment.name} className="max-h-[80vh] max-w-full object-contain p-2" />
          ) : (
            <AttachmentPreview attachment={attachment} />
          )}
        </div>
      )}
    </dialog>
  );
}
