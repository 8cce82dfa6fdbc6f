import { parseAttachmentId } from "@/lib/attachments/attachment-input";
import { readAttachmentText } from "@/lib/attachments/read-attachment-text";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

/** A text file's or a PDF's text, for previews: on the same terms as the file (others 404), at most 200,000 characters. */
export async function GET(request: Request, { params }: { params: Promise<{ attachmentId: string }> }) {
  return jsonResponse("attachment-text", async () => {
    const { runtime, user } = await requireApiUser(request);
    return readAttachmentText(runtime.db.prisma, { userId: user.id, attachmentId: parseAttachmentId((await params).attachmentId) });
  });
}
