import { errorResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";
import { parseAttachmentId } from "./attachment-input";
import { attachmentResponse } from "./attachment-response";
import { readAttachment } from "./read-attachment";

/** GET /api/attachments/{id} and its thumbnail: the bytes for those who may see them, else a JSON error (404 for anyone else). */
export async function serveAttachment(request: Request, attachmentId: string, thumbnail: boolean): Promise<Response> {
  try {
    const { runtime, user } = await requireApiUser(request);
    const file = await readAttachment(runtime.db.prisma, runtime.attachments.store, { userId: user.id, attachmentId: parseAttachmentId(attachmentId), thumbnail });
    return attachmentResponse(file);
  } catch (error) {
    return errorResponse(thumbnail ? "attachment-thumbnail" : "read-attachment", error);
  }
}
