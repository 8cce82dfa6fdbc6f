import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody } from "@/lib/http/json-response";
import { deleteMessage } from "@/lib/messages/delete-message";
import { editMessage } from "@/lib/messages/edit-message";
import { messageChangeSchema, parseMessageId } from "@/lib/messages/message-change-input";
import { showVersion } from "@/lib/messages/show-version";
import { messaging } from "@/lib/runtime/runtime";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ messageId: string }> };

/**
 * Edits your message ({content}; with "resend": true your latest message is also answered
 * again by the agents that answered it), or shows another of its versions ({version}).
 */
export async function PATCH(request: Request, { params }: Params) {
  return jsonResponse("change-message", async () => {
    const { runtime, user } = await requireApiUser(request);
    const messageId = parseMessageId((await params).messageId);
    const parsed = messageChangeSchema.safeParse(await readJsonBody(request, '{"content": "the new text"}'));
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid change.");
    if ("version" in parsed.data) return { messages: await showVersion(messaging(runtime), { user, input: { messageId, version: parsed.data.version } }) };
    const { message, unaskedHandles, askedAgain } = await editMessage(messaging(runtime), { userId: user.id, input: { messageId, content: parsed.data.content, resend: parsed.data.resend ?? false } });
    return { message, unaskedHandles, askedAgain };
  });
}

/** Deletes your message (admins: anyone's), leaving a tombstone. */
export async function DELETE(request: Request, { params }: Params) {
  return jsonResponse("delete-message", async () => {
    const { runtime, user } = await requireApiUser(request);
    const messageId = parseMessageId((await params).messageId);
    return { message: await deleteMessage({ ...messaging(runtime), stopTurn: (id) => runtime.turns.stop(id) }, { user, messageId }) };
  });
}
