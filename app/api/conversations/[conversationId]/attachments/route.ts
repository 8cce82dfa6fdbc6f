import { uploadAttachment } from "@/lib/attachments/upload-attachment";
import { jsonResponse, readUploadedFile, WithStatus } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

/** Attaches a file (multipart field "file") in the conversation, to be sent with a message: 201 with its id, name, type and size. */
export async function POST(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("upload-attachment", async () => {
    const { runtime, user } = await requireApiUser(request);
    const file = await readUploadedFile(request);
    const attachment = await uploadAttachment(runtime.db.prisma, runtime.attachments.store, runtime.attachments.limits, {
      userId: user.id,
      conversationId: (await params).conversationId,
      name: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    return new WithStatus(attachment, 201);
  });
}
