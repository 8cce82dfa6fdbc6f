import { randomUUID } from "node:crypto";
import { assertAdmin } from "@/lib/auth/assert-admin";
import type { SessionUser } from "@/lib/auth/session-user";
import { readEnv } from "@/lib/config/env";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { findPrimaryProject } from "@/lib/projects/primary-project";
import { refineSingleLine } from "@/lib/validation/plain-text";
import { z } from "zod";
import { extractionLimits, extractText } from "./extract-text";
import type { ReadLimits } from "./read-in-worker";
import { toDocumentSummary, type DocumentSummary } from "./document-summary";

const fileName = z
  .string()
  .trim()
  .min(1, "The file needs a name.")
  .max(200, "File names can be at most 200 characters.")
  .superRefine(refineSingleLine("File names"));

/** The agent, if it belongs to the admin's project; anything else is "not found". */
export async function agentOfAdmin(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<{ id: string; projectId: string; displayName: string }> {
  assertAdmin(actor);
  const project = await findPrimaryProject(prisma, { userId: actor.id });
  const agent = project ? await prisma.agent.findFirst({ where: { id: agentId, projectId: project.id }, select: { id: true, projectId: true, displayName: true } }) : null;
  if (!agent) throw new AppError("not_found", "That agent does not exist in your project.");
  return agent;
}

export interface UploadDocumentOptions {
  actor: SessionUser;
  agentId: string;
  name: string;
  bytes: Uint8Array;
  /** Caps on the extracted text and limits on reading a file in the worker; by default the node's configuration. */
  limits?: ReadLimits;
}

/**
 * Accepts a file for an agent's knowledge: its text is extracted now, a PDF, Word document or web
 * page in a worker thread (so a bad file is refused at once with the reason, and nothing is
 * stored), and the document is queued; chunking, embedding and indexing happen in the background. A document of the same name is replaced when
 * this one is ready; one still waiting or being indexed is superseded at once (its worker finds it
 * gone at its next write), so however often a file is uploaded, one version ends up indexed.
 */
export async function uploadDocument(prisma: Prisma, { actor, agentId, name, bytes, limits = extractionLimits(readEnv()) }: UploadDocumentOptions): Promise<DocumentSummary> {
  const agent = await agentOfAdmin(prisma, { actor, agentId });
  const parsedName = fileName.safeParse(name);
  if (!parsedName.success) throw new AppError("bad_request", parsedName.error.issues[0]!.message);
  const { text, mediaType } = await extractText(parsedName.data, bytes, limits);
  const row = await prisma.$transaction(async (tx) => {
    await tx.knowledgeDocument.deleteMany({ where: { agentId: agent.id, name: parsedName.data, status: { in: ["queued", "processing"] } } });
    return tx.knowledgeDocument.create({ data: { id: randomUUID(), agentId: agent.id, name: parsedName.data, mediaType, bytes: bytes.length, text } });
  });
  return toDocumentSummary(row);
}
