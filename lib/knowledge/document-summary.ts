/** A knowledge document as the admin page and the progress events show it. */
export interface DocumentSummary {
  id: string;
  agentId: string;
  name: string;
  mediaType: string;
  bytes: number;
  status: "queued" | "processing" | "ready" | "failed";
  /** 0–1 while processing. */
  progress: number;
  chunkCount: number;
  error: string | null;
  createdAt: string;
}

export function toDocumentSummary(row: { id: string; agentId: string; name: string; mediaType: string; bytes: number; status: string; progress: number; chunkCount: number; error: string | null; createdAt: Date }): DocumentSummary {
  return {
    id: row.id,
    agentId: row.agentId,
    name: row.name,
    mediaType: row.mediaType,
    bytes: row.bytes,
    status: row.status as DocumentSummary["status"],
    progress: row.progress,
    chunkCount: row.chunkCount,
    error: row.error,
    createdAt: row.createdAt.toISOString(),
  };
}
