import { conversationIdSchema } from "@/lib/conversations/message-input";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";
import { listTurns } from "@/lib/turns/read-turns";

/** The conversation's agent turns, newest first (debug and admin participants). */
export async function GET(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("list-turns", async () => {
    const { runtime, user } = await requireApiUser(request);
    const conversationId = conversationIdSchema.safeParse((await params).conversationId);
    if (!conversationId.success) throw new AppError("not_found", "There is no such conversation, or you are not in it.");
    return listTurns(runtime.db.prisma, { user, conversationId: conversationId.data });
  });
}
