import { jsonResponse } from "@/lib/http/json-response";
import { parseSearchInput } from "@/lib/search/search-input";
import { searchMessages } from "@/lib/search/search-messages";
import { requireApiUser } from "@/lib/session/api-user";

/**
 * Messages matching `q` in the caller's conversations, best first:
 * `GET /api/search?q=&conversationId=&authorId=&after=&before=&offset=`.
 */
export async function GET(request: Request) {
  return jsonResponse("search", async () => {
    const { runtime, user } = await requireApiUser(request);
    const input = parseSearchInput(Object.fromEntries(new URL(request.url).searchParams));
    return searchMessages(runtime.db.prisma, { userId: user.id, ...input });
  });
}
