import { jsonResponse } from "@/lib/http/json-response";
import { countUnreadInbox } from "@/lib/inbox/count-unread-inbox";
import { requireApiUser } from "@/lib/session/api-user";

/** How many of the caller's mentions and replies are unread: `GET /api/inbox/unread` → `{ data: { count } }`. */
export async function GET(request: Request) {
  return jsonResponse("inbox-unread", async () => {
    const { runtime, user } = await requireApiUser(request);
    return { count: await countUnreadInbox(runtime.db.prisma, { userId: user.id }) };
  });
}
