import { managerOf } from "@/lib/conversations/conversation-permissions";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { removeMember } from "@/lib/conversations/remove-member";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ conversationId: string; memberId: string }> };

/** Removes a person or an agent (by its id) from a channel; your own user id leaves it. */
export async function DELETE(request: Request, { params }: Params) {
  return jsonResponse("remove-member", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { conversationId, memberId } = await params;
    const parsed = conversationIdSchema.safeParse(conversationId);
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid conversation id.");
    return removeMember({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId: parsed.data, memberId });
  });
}
