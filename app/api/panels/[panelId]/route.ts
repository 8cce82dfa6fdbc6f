import { jsonResponse } from "@/lib/http/json-response";
import { readPanel } from "@/lib/panels/read-panel";
import { requireApiUser } from "@/lib/session/api-user";

/** A panel's state: each agent's status and current answer, the votes, the round and tokens so far. */
export async function GET(request: Request, { params }: { params: Promise<{ panelId: string }> }) {
  return jsonResponse("read-panel", async () => {
    const { runtime, user } = await requireApiUser(request);
    return readPanel(runtime.db.prisma, { userId: user.id, panelId: (await params).panelId.slice(0, 100) });
  });
}
