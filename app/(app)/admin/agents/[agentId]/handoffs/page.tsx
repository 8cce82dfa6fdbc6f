import Link from "next/link";
import { HandoffSettingsForm } from "@/components/admin/handoff-settings-form";
import { getHandoffSettings } from "@/lib/handoffs/manage-handoffs";
import { loadAdminAgent } from "../load-agent";
import { saveHandoffSettingsAction, testRoutingAction } from "./actions";

export default async function HandoffsPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const { settings, candidates } = await getHandoffSettings(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      <p className="text-sm">
        <Link href="/admin/agents" className="text-link underline">
          Agents
        </Link>{" "}
        / {agent.displayName}
      </p>
      <h1 className="text-2xl font-bold">{agent.displayName}&apos;s handoffs</h1>
      <p className="text-sm text-muted">
        An orchestrator hands a message to one of its specialists, who answers in the same conversation. Real models decide with a handoff tool; the offline model follows
        the routing rules below. Each specialist gets the context its mode shares.
      </p>
      <HandoffSettingsForm agentId={agent.id} agentName={agent.displayName} initial={settings} candidates={candidates} actions={{ save: saveHandoffSettingsAction, test: testRoutingAction }} />
    </div>
  );
}
