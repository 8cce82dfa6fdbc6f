import { addMember, newMemberSchema } from "@/lib/conversations/add-member";
import { managerOf } from "@/lib/conversations/conversation-permissions";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody, WithStatus } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ conversationId: string }> };

/**
 * Adds a person (`{"userId"}`) or an agent (`{"agentId"}`) to a channel (201); your own user id
 * joins a public channel.
 */
export async function POST(request: Request, { params }: Params) {
  return jsonResponse("add-member", async () => {
    const { runtime, user } = await requireApiUser(request);
    const conversationId = conversationIdSchema.safeParse((await params).conversationId);
    if (!conversationId.success) throw new AppError("bad_request", conversationId.error.issues[0]?.message ?? "Invalid conversation id.");
    const parsed = newMemberSchema.safeParse(await readJsonBody(request, '{"userId": "…"}'));
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid request.");
    const result = await addMember({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId: conversationId.data, member: parsed.data });
    return new WithStatus(result, 201);
  });
}
