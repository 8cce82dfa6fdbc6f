import { jsonResponse } from "@/lib/http/json-response";
import { deleteDocument } from "@/lib/knowledge/manage-documents";
import { requireApiUser } from "@/lib/session/api-user";

/** Removes a document and its chunks from the agent's knowledge (admins). */
export async function DELETE(request: Request, { params }: { params: Promise<{ agentId: string; documentId: string }> }) {
  return jsonResponse("delete-knowledge", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { agentId, documentId } = await params;
    await deleteDocument(runtime.db.prisma, { actor: user, agentId, documentId });
    return null;
  });
}
