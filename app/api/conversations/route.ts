import { listConversations } from "@/lib/conversations/list-conversations";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/current-user";

/** The signed-in user's conversations with unread and mention counts (the sidebar). */
export async function GET() {
  return jsonResponse("list-conversations", async () => {
    const { runtime, user } = await requireApiUser();
    return listConversations(runtime.db.prisma, { userId: user.id });
  });
}
