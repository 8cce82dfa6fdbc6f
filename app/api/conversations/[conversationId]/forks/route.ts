import { listForks } from "@/lib/handoffs/read-forks";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

/** The forks made from a conversation, newest first. */
export async function GET(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("list-forks", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listForks(runtime.db.prisma, { userId: user.id, conversationId: (await params).conversationId.slice(0, 100) });
  });
}
