import { jsonResponse } from "@/lib/http/json-response";
import { requireApiUser } from "@/lib/session/api-user";
import { getTurnContext } from "@/lib/turns/read-turns";

/** What the agent saw for one turn: the snapshot of ../shared/design/context.md. */
export async function GET(request: Request, { params }: { params: Promise<{ turnId: string }> }) {
  return jsonResponse("turn-context", async () => {
    const { runtime, user } = await requireApiUser(request);
    return getTurnContext(runtime.db.prisma, { user, turnId: (await params).turnId.slice(0, 100) });
  });
}
