import { readFork } from "@/lib/handoffs/read-forks";
import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";

/** A forked context: its copied starting context, the specialist's steps and its result. */
export async function GET(request: Request, { params }: { params: Promise<{ forkId: string }> }) {
  return jsonResponse("read-fork", async () => {
    const { runtime, user } = await requireApiUser(request);
    return readFork(runtime.db.prisma, { userId: user.id, forkId: (await params).forkId.slice(0, 100) });
  });
}
