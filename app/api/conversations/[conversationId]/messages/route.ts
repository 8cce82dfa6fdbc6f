import { randomUUID } from "node:crypto";
import { z } from "zod";
import { listMessages } from "@/lib/conversations/list-messages";
import { conversationIdSchema, postMessageInputSchema } from "@/lib/conversations/message-input";
import { sendMessage } from "@/lib/conversations/send-message";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody, WithStatus } from "@/lib/http/json-response";
import { messaging } from "@/lib/runtime/runtime";
import { requireApiUser } from "@/lib/session/api-user";

type Params = { params: Promise<{ conversationId: string }> };

const querySchema = z.object({
  conversationId: conversationIdSchema,
  beforeSeq: z.coerce.number().int().min(1).optional(),
});

/** A page of history, newest first; `beforeSeq` pages further back. */
export async function GET(request: Request, { params }: Params) {
  return jsonResponse("list-messages", async () => {
    const { runtime, user } = await requireApiUser(request);
    const beforeSeq = new URL(request.url).searchParams.get("beforeSeq") ?? undefined;
    const parsed = querySchema.safeParse({ conversationId: (await params).conversationId, beforeSeq });
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid request.");
    return listMessages(runtime.db.prisma, { userId: user.id, ...parsed.data });
  });
}

/**
 * Posts a message as the token's (or session's) user: the same rules, rate limit and agent
 * dispatch as the composer. Send a `clientId` (a UUID) to make retries safe: the same clientId
 * returns the first message (200) instead of posting twice (201).
 */
export async function POST(request: Request, { params }: Params) {
  return jsonResponse("post-message", async () => {
    const { runtime, user } = await requireApiUser(request);
    const body = await readJsonBody(request, '{"content": "hello", "clientId": "<a UUID>"}');
    const fields = typeof body === "object" && body !== null ? body : {};
    const parsed = postMessageInputSchema.safeParse({ clientId: randomUUID(), ...fields, conversationId: (await params).conversationId });
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid message.");
    const result = await sendMessage(messaging(runtime), { userId: user.id, input: parsed.data });
    return new WithStatus({ message: result.message, created: result.created, unknownMentions: result.unknownMentions }, result.created ? 201 : 200);
  });
}
