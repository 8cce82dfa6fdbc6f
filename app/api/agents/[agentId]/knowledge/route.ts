import { jsonResponse, WithStatus } from "@/lib/http/json-response";
import { readUploadedFile } from "@/lib/http/read-uploaded-file";
import { listDocuments } from "@/lib/knowledge/manage-documents";
import { extractionLimits, MAX_UPLOAD_BYTES } from "@/lib/knowledge/extract-text";
import { uploadDocument } from "@/lib/knowledge/upload-document";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ agentId: string }> };

/** The agent's knowledge documents with their ingestion status (admins). */
export async function GET(request: Request, { params }: Params) {
  return jsonResponse("list-knowledge", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listDocuments(runtime.db.prisma, { actor: user, agentId: (await params).agentId });
  });
}

/** Adds a file of one of the accepted kinds (lib/knowledge/knowledge-formats; multipart field "file") to the agent's knowledge; indexed in the background. */
export async function POST(request: Request, { params }: Params) {
  return jsonResponse("upload-knowledge", async () => {
    const { runtime, user } = await requireApiUser(request);
    const file = await readUploadedFile(request, { maxBytes: MAX_UPLOAD_BYTES });
    const document = await uploadDocument(runtime.db.prisma, { actor: user, agentId: (await params).agentId, ...file, limits: extractionLimits(runtime.env) });
    runtime.knowledge?.wake();
    return new WithStatus(document, 201);
  });
}
