import type { ComposerUpload } from "@/hooks/use-attachment-uploads";
import { formatBytes } from "@/lib/attachments/format-bytes";

/** The files attached in the composer: progress while uploading, the reason when refused, and a way to remove each. */
export function ComposerUploads({ uploads, onRemove }: { uploads: ComposerUpload[]; onRemove: (localId: string) => void }) {
  if (uploads.length === 0) return null;
  return (
    <ul aria-label="Files to send" className="mb-1 flex flex-wrap gap-2">
      {uploads.map((upload) => (
        <li key={upload.localId} className={`flex max-w-full items-center gap-2 rounded-lg border px-2 py-1 text-xs ${upload.status === "failed" ? "border-red-400 dark:border-red-700" : "border-slate-300 dark:border-slate-600"}`}>
          <span className="min-w-0 max-w-[12rem] truncate font-medium">{upload.name}</span>
          <span className="text-muted">{formatBytes(upload.bytes)}</span>
          {upload.status === "uploading" && (
            <progress max={1} value={upload.progress} aria-label={`Uploading ${upload.name}`} className="h-1.5 w-16 accent-brand-600">
              {Math.round(upload.progress * 100)}%
            </progress>
          )}
          {upload.status === "failed" && (
            <span role="alert" className="text-danger">
              {upload.error}
            </span>
          )}
          <button type="button" onClick={() => onRemove(upload.localId)} aria-label={`Remove ${upload.name}`} className="rounded px-1 text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
