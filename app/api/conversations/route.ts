import { listConversations } from "@/lib/conversations/list-conversations";
import { startConversation, startConversationSchema } from "@/lib/conversations/start-conversation";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody, WithStatus } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

/** The user's conversations with unread and mention counts (the sidebar). */
export async function GET(request: Request) {
  return jsonResponse("list-conversations", async () => {
    const { runtime, user } = await requireApiUser(request);
    return listConversations(runtime.db.prisma, { userId: user.id });
  });
}

/**
 * Opens a conversation: `{"type": "dm", "otherUserId"}`, `{"type": "agent_dm", "agentId"}`,
 * `{"type": "room", "room": "task:42"}` or `{"type": "channel", "name", "agentIds"?}`; the
 * existing one if it is already there (200), a new one otherwise (201).
 */
export async function POST(request: Request) {
  return jsonResponse("start-conversation", async () => {
    const { runtime, user } = await requireApiUser(request);
    const parsed = startConversationSchema.safeParse(await readJsonBody(request, '{"type": "room", "room": "task:42"}'));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError("bad_request", issue ? `${issue.path.length > 0 ? `${issue.path.join(".")}: ` : ""}${issue.message}` : "Invalid request.");
    }
    const result = await startConversation({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { userId: user.id, input: parsed.data });
    return new WithStatus(result, result.created ? 201 : 200);
  });
}
