"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { AttachmentDto } from "@/lib/attachments/attachment-dto";

/** A file being attached in the composer: uploading (with progress), ready to send, or refused. */
export interface ComposerUpload {
  localId: string;
  name: string;
  bytes: number;
  /** 0 to 1. */
  progress: number;
  status: "uploading" | "ready" | "failed";
  attachment?: AttachmentDto;
  error?: string;
}

/**
 * The composer's files: each uploads at once (so sending is instant), with progress; one can be
 * removed (an upload under way is cancelled); what was uploaded but never sent is swept by the
 * server. XMLHttpRequest, because fetch cannot report upload progress.
 */
export function useAttachmentUploads(conversationId: string) {
  const [uploads, setUploads] = useState<ComposerUpload[]>([]);
  const requests = useRef(new Map<string, XMLHttpRequest>());

  const update = (localId: string, change: Partial<ComposerUpload>) => setUploads((list) => list.map((item) => (item.localId === localId ? { ...item, ...change } : item)));

  const add = useCallback(
    (files: File[]) => {
      for (const file of files) {
        const localId = crypto.randomUUID();
        setUploads((list) => [...list, { localId, name: file.name, bytes: file.size, progress: 0, status: "uploading" }]);
        const request = new XMLHttpRequest();
        requests.current.set(localId, request);
        request.open("POST", `/api/conversations/${conversationId}/attachments`);
        request.responseType = "json";
        request.upload.onprogress = (event) => event.lengthComputable && update(localId, { progress: event.loaded / event.total });
        request.onload = () => {
          requests.current.delete(localId);
          const body = request.response as { data?: AttachmentDto; error?: { message: string } } | null;
          if (request.status === 201 && body?.data) update(localId, { status: "ready", progress: 1, attachment: body.data });
          else update(localId, { status: "failed", error: body?.error?.message ?? `The upload failed (${request.status}).` });
        };
        request.onerror = () => {
          requests.current.delete(localId);
          update(localId, { status: "failed", error: "The upload failed: the connection was lost." });
        };
        const form = new FormData();
        form.set("file", file);
        request.send(form);
      }
    },
    [conversationId],
  );

  const remove = useCallback((localId: string) => {
    requests.current.get(localId)?.abort();
    requests.current.delete(localId);
    setUploads((list) => list.filter((item) => item.localId !== localId));
  }, []);

  /** After sending: the composer starts empty again. */
  const clear = useCallback(() => setUploads([]), []);

  // Leaving the conversation cancels what is still uploading.
  useEffect(() => {
    const pending = requests.current;
    return () => pending.forEach((request) => request.abort());
  }, []);

  return {
    uploads,
    add,
    remove,
    clear,
    uploading: uploads.some((item) => item.status === "uploading"),
    readyIds: uploads.flatMap((item) => (item.status === "ready" && item.attachment ? [item.attachment.id] : [])),
  };
}
