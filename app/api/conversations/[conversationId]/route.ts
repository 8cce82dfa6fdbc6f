import { managerOf } from "@/lib/conversations/conversation-permissions";
import { conversationChangesSchema } from "@/lib/conversations/conversation-settings";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { updateConversation } from "@/lib/conversations/update-conversation";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ conversationId: string }> };

/**
 * Renames a channel or an agent chat, sets a channel's topic, archives or unarchives:
 * `{"name"?, "topic"?, "archived"?}`. Answers the conversation as its participants now see it.
 */
export async function PATCH(request: Request, { params }: Params) {
  return jsonResponse("update-conversation", async () => {
    const { runtime, user } = await requireApiUser(request);
    const conversationId = conversationIdSchema.safeParse((await params).conversationId);
    if (!conversationId.success) throw new AppError("bad_request", conversationId.error.issues[0]?.message ?? "Invalid conversation id.");
    const parsed = conversationChangesSchema.safeParse(await readJsonBody(request, '{"name": "ops", "topic": "Deploys and incidents"}'));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError("bad_request", issue ? `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "Invalid request.");
    }
    return updateConversation({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId: conversationId.data, changes: parsed.data });
  });
}
