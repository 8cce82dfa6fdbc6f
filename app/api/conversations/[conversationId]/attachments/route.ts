import { uploadAttachment } from "@/lib/attachments/upload-attachment";
import { jsonResponse, WithStatus } from "@/lib/http/json-response";
import { readUploadedFile } from "@/lib/http/read-uploaded-file";
import { requireApiUser } from "@/lib/session/api-user";

/** Attaches a file (multipart field "file") in the conversation, to be sent with a message: 201 with its id, name, type and size. */
export async function POST(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("upload-attachment", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { limits, store } = runtime.attachments;
    const file = await readUploadedFile(request, { maxBytes: limits.maxBytes });
    const attachment = await uploadAttachment(runtime.db.prisma, store, limits, { userId: user.id, conversationId: (await params).conversationId, ...file });
    return new WithStatus(attachment, 201);
  });
}
