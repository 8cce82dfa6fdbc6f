"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef, useState, type FormEvent } from "react";
import type { DocumentSummary } from "@/lib/knowledge/document-summary";
import { ACCEPT_ATTRIBUTE, ACCEPTED_IN_WORDS } from "@/lib/knowledge/knowledge-formats";
import { getSocket, listenTo } from "@/hooks/use-socket";
import { ItemList } from "@/components/ui/item-list";

const statusText: Record<DocumentSummary["status"], string> = { queued: "Queued", processing: "Indexing", ready: "Ready", failed: "Failed" };

/** Upload, follow (live over the socket) and delete an agent's knowledge documents. */
export function KnowledgeManager({ agentId, initial, memoryEnabled }: { agentId: string; initial: DocumentSummary[]; memoryEnabled: boolean }) {
  const router = useRouter();
  const [documents, setDocuments] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const socket = getSocket();
    const onProgress = (document: DocumentSummary) => {
      if (document.agentId !== agentId) return;
      setDocuments((list) => {
        const others = list.filter((item) => item.id !== document.id);
        // A ready document replaces the older one of the same name.
        const kept = document.status === "ready" ? others.filter((item) => item.name !== document.name) : others;
        return [document, ...kept].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
      });
    };
    return listenTo(socket, { "knowledge:progress": onProgress });
  }, [agentId]);

  const upload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const file = input.current?.files?.[0];
    if (!file) {
      setError("Choose a file first.");
      input.current?.focus();
      return;
    }
    setBusy(true);
    const form = new FormData();
    form.set("file", file);
    const response = await fetch(`/api/agents/${agentId}/knowledge`, { method: "POST", body: form }).catch(() => null);
    setBusy(false);
    const body = response ? await response.json().catch(() => null) : null;
    if (!response || !response.ok) {
      setError(body?.error?.message ?? "Could not reach Chorus. Try again.");
      input.current?.focus();
      return;
    }
    setError(null);
    // The worker may have taken it, and even finished it, before this answer arrived: what the
    // socket said of it since is newer than this "queued" (it stayed "Queued" until a reload).
    const uploaded = body.data as DocumentSummary;
    setDocuments((list) => (list.some((item) => item.id === uploaded.id) ? list : [uploaded, ...list]));
    event.currentTarget.reset();
  };

  const remove = async (document: DocumentSummary) => {
    const response = await fetch(`/api/agents/${agentId}/knowledge/${document.id}`, { method: "DELETE" }).catch(() => null);
    if (!response?.ok) return setError((await response?.json().catch(() => null))?.error?.message ?? "Could not delete it. Try again.");
    setDocuments((list) => list.filter((item) => item.id !== document.id));
    router.refresh();
  };

  return (
    <div className="space-y-4">
      {!memoryEnabled && <p className="rounded-md bg-amber-100 px-3 py-2 text-sm text-amber-950 dark:bg-amber-900/60 dark:text-amber-50">Memory is not running on this server: uploads wait until it is.</p>}
      <form onSubmit={(event) => void upload(event)} className="flex flex-wrap items-end gap-2" noValidate>
        <label className="min-w-0 flex-1 text-sm font-medium">
          File
          <input
            ref={input}
            type="file"
            name="file"
            accept={ACCEPT_ATTRIBUTE}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "knowledge-kinds upload-error" : "knowledge-kinds"}
            className="mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950"
          />
        </label>
        <button type="submit" disabled={busy} className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-60">
          {busy ? "Uploading…" : "Upload"}
        </button>
      </form>
      <p id="knowledge-kinds" className="-mt-2 text-xs text-muted">
        Accepted: {ACCEPTED_IN_WORDS}; up to 10 MB each.
      </p>
      {error && (
        <p id="upload-error" role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      <ItemList items={documents} label="Documents" empty="No documents yet." itemLabel={(document) => `Document ${document.name}`} itemClassName="space-y-1">
        {(document) => (
          <>
            <div className="flex flex-wrap items-center gap-x-3">
              <span className="min-w-0 flex-1 truncate font-semibold">{document.name}</span>
              <span className={document.status === "failed" ? "font-semibold text-danger" : "text-muted-strong"}>
                {statusText[document.status]}
                {document.status === "ready" && ` · ${document.chunkCount} chunk${document.chunkCount === 1 ? "" : "s"}`}
              </span>
              <button type="button" onClick={() => void remove(document)} className="rounded-md px-2 py-1 text-danger hover:bg-red-50 dark:hover:bg-red-950">
                Delete<span className="sr-only"> {document.name}</span>
              </button>
            </div>
            {(document.status === "processing" || document.status === "queued") && (
              <progress max={1} value={document.status === "queued" ? undefined : document.progress} aria-label={`Indexing ${document.name}`} className="h-2 w-full accent-brand-600" />
            )}
            {document.error && <p className="text-xs text-danger">{document.error}</p>}
            <p className="text-xs text-muted">
              {(document.bytes / 1024).toFixed(document.bytes < 10_240 ? 1 : 0)} KB · added {new Date(document.createdAt).toLocaleString()}
            </p>
          </>
        )}
      </ItemList>
    </div>
  );
}
