import { AdminSubpage } from "@/components/admin/admin-subpage";
import { ProcedureManager } from "@/components/memory/procedure-manager";
import { listProcedures } from "@/lib/memory/manage-procedures";
import { loadAdminAgent } from "../load-agent";
import { createProcedureAction, deleteProcedureAction, setProcedureStatusAction, updateProcedureAction } from "./actions";

export default async function ProceduresPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const procedures = await listProcedures(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <AdminSubpage
      crumb={agent.displayName}
      title={`${agent.displayName}'s procedures`}
      intro={
        <>
          Ways of doing a task that {agent.displayName} follows when a message matches: by its trigger (a regular expression) or by meaning. Procedures it picked up from its
          own step-by-step answers wait here, pending, until you approve them; only approved ones are ever used.
        </>
      }
    >
      <ProcedureManager
        agentId={agent.id}
        procedures={procedures}
        actions={{ create: createProcedureAction, update: updateProcedureAction, setStatus: setProcedureStatusAction, remove: deleteProcedureAction }}
      />
    </AdminSubpage>
  );
}
