import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { inboxQuerySchema } from "@/lib/inbox/inbox-page";
import { listInbox } from "@/lib/inbox/list-inbox";
import { requireApiUser } from "@/lib/session/api-user";

/** The caller's "Mentions and replies", newest first: `GET /api/inbox?cursor=` (the previous page's nextCursor). */
export async function GET(request: Request) {
  return jsonResponse("inbox", async () => {
    const { runtime, user } = await requireApiUser(request);
    const parsed = inboxQuerySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid request.", { cursor: parsed.error.issues[0]?.message ?? "Invalid cursor." });
    return listInbox(runtime.db.prisma, { userId: user.id, cursor: parsed.data.cursor });
  });
}
