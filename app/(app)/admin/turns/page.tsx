import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { TurnLoadView } from "@/components/admin/turn-load-view";
import { readTurnLoad } from "@/lib/dispatch/read-turn-load";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { readTurnLoadAction } from "./actions";

export default async function AgentTurnsPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db, env } = await getRuntime();
  const load = await readTurnLoad(db.prisma, { actor: user, env });
  return (
    <AdminSubpage
      crumb="Agent turns"
      title="Agent turns"
      intro="Agents' answers running and waiting on every node, per provider, against the limits this server is configured with. A turn waits when its agent is still answering in that conversation, when the limits are reached, or when the provider asked it to (a 429)."
    >
      <TurnLoadView initial={load} read={readTurnLoadAction} />
    </AdminSubpage>
  );
}
