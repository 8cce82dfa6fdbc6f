import { z } from "zod";
import { listMessages } from "@/lib/conversations/list-messages";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/current-user";

const querySchema = z.object({
  conversationId: conversationIdSchema,
  beforeSeq: z.coerce.number().int().min(1).optional(),
});

/** A page of history, newest first; `beforeSeq` pages further back. */
export async function GET(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("list-messages", async () => {
    const { runtime, user } = await requireApiUser();
    const beforeSeq = new URL(request.url).searchParams.get("beforeSeq") ?? undefined;
    const parsed = querySchema.safeParse({ conversationId: (await params).conversationId, beforeSeq });
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid request.");
    return listMessages(runtime.db.prisma, { userId: user.id, ...parsed.data });
  });
}
