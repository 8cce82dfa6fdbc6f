import { parseMessageId } from "@/lib/messages/message-change-input";
import { jsonResponse } from "@/lib/http/json-response";
import { listVersions } from "@/lib/messages/list-versions";
import { requireApiUser } from "@/lib/session/api-user";

/** Every version of a message, oldest first, with the one shown marked. */
export async function GET(request: Request, { params }: { params: Promise<{ messageId: string }> }) {
  return jsonResponse("list-versions", async () => {
    const { runtime, user } = await requireApiUser(request);
    return { versions: await listVersions(runtime.db.prisma, { userId: user.id, messageId: parseMessageId((await params).messageId) }) };
  });
}
