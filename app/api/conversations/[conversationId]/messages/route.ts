import { headers } from "next/headers";
import { z } from "zod";
import { getSessionUser } from "@/lib/auth/session-user";
import { listMessages } from "@/lib/conversations/list-messages";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse } from "@/lib/http/json-response";
import { getRuntime } from "@/lib/runtime/runtime";

const querySchema = z.object({
  conversationId: conversationIdSchema,
  beforeSeq: z.coerce.number().int().min(1).optional(),
});

export async function GET(request: Request, { params }: { params: Promise<{ conversationId: string }> }) {
  return jsonResponse("list-messages", async () => {
    const runtime = await getRuntime();
    const user = await getSessionUser(runtime.auth, await headers());
    if (!user) throw new AppError("unauthorized", "Sign in to read messages.");
    const url = new URL(request.url);
    const parsed = querySchema.safeParse({ conversationId: (await params).conversationId, beforeSeq: url.searchParams.get("beforeSeq") ?? undefined });
    if (!parsed.success) throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid request.");
    return listMessages(runtime.db.prisma, { userId: user.id, ...parsed.data });
  });
}
