import { jsonResponse } from "@/lib/http/json-response";
import { parseSourceId, readReplySource } from "@/lib/knowledge/read-reply-source";
import { parseMessageId } from "@/lib/messages/message-change-input";
import { requireApiUser } from "@/lib/session/api-user";

/** A chunk the message cites, in its document: for those who can see the message; others 404. */
export async function GET(request: Request, { params }: { params: Promise<{ messageId: string; chunkId: string }> }) {
  return jsonResponse("reply-source", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { messageId, chunkId } = await params;
    return readReplySource(runtime.db.prisma, { userId: user.id, messageId: parseMessageId(messageId), chunkId: parseSourceId(chunkId) });
  });
}
