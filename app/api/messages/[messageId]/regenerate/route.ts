import { parseMessageId } from "@/lib/messages/message-change-input";
import { jsonResponse, WithStatus } from "@/lib/http/json-response";
import { regenerateReply } from "@/lib/messages/regenerate-reply";
import { messaging } from "@/lib/runtime/runtime";
import { requireApiUser } from "@/lib/session/api-user";

/** Asks the agent to answer again: the reply gains a version when it is written (202: queued). */
export async function POST(request: Request, { params }: { params: Promise<{ messageId: string }> }) {
  return jsonResponse("regenerate-reply", async () => {
    const { runtime, user } = await requireApiUser(request);
    return new WithStatus(await regenerateReply(messaging(runtime), { user, messageId: parseMessageId((await params).messageId) }), 202);
  });
}
