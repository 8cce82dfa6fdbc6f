import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";
import { agentOfAdmin } from "./upload-document";

const summaryColumns = { id: true, agentId: true, name: true, mediaType: true, bytes: true, status: true, progress: true, chunkCount: true, error: true, createdAt: true } as const;

/** An agent's documents, newest first. */
export async function listDocuments(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<DocumentSummary[]> {
  await agentOfAdmin(prisma, { actor, agentId });
  const rows = await prisma.knowledgeDocument.findMany({ where: { agentId }, orderBy: { createdAt: "desc" }, select: summaryColumns });
  return rows.map(toDocumentSummary);
}

/**
 * Deletes a document and its chunks at once. One still being ingested is gone too: its
 * indexing step finds no document and writes nothing.
 */
export async function deleteDocument(prisma: Prisma, { actor, agentId, documentId }: { actor: SessionUser; agentId: string; documentId: string }): Promise<void> {
  await agentOfAdmin(prisma, { actor, agentId });
  const { count } = await prisma.knowledgeDocument.deleteMany({ where: { id: documentId, agentId } });
  if (count === 0) throw new AppError("not_found", "That document does not exist (it may have been deleted already).");
}
