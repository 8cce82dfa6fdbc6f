import { AdminSubpage } from "@/components/admin/admin-subpage";
import { HandoffSettingsForm } from "@/components/admin/handoff-settings-form";
import { getHandoffSettings } from "@/lib/handoffs/manage-handoffs";
import { loadAdminAgent } from "../load-agent";
import { saveHandoffSettingsAction, testRoutingAction } from "./actions";

export default async function HandoffsPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const { settings, candidates } = await getHandoffSettings(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <AdminSubpage
      crumb={agent.displayName}
      title={`${agent.displayName}'s handoffs`}
      intro={
        <>
          An orchestrator hands a message to one of its specialists, who answers in the same conversation. Real models decide with a handoff tool; the offline model follows
          the routing rules below. Each specialist gets the context its mode shares.
        </>
      }
    >
      <HandoffSettingsForm agentId={agent.id} agentName={agent.displayName} initial={settings} candidates={candidates} actions={{ save: saveHandoffSettingsAction, test: testRoutingAction }} />
    </AdminSubpage>
  );
}
