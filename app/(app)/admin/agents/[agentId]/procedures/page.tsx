import Link from "next/link";
import { ProcedureManager } from "@/components/memory/procedure-manager";
import { listProcedures } from "@/lib/memory/manage-procedures";
import { loadAdminAgent } from "../load-agent";
import { createProcedureAction, deleteProcedureAction, setProcedureStatusAction, updateProcedureAction } from "./actions";

export default async function ProceduresPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const procedures = await listProcedures(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      <p className="text-sm">
        <Link href="/admin/agents" className="text-link underline">
          Agents
        </Link>{" "}
        / {agent.displayName}
      </p>
      <h1 className="text-2xl font-bold">{agent.displayName}&apos;s procedures</h1>
      <p className="text-sm text-muted">
        Ways of doing a task that {agent.displayName} follows when a message matches: by its trigger (a regular expression) or by meaning. Procedures it picked up from its
        own step-by-step answers wait here, pending, until you approve them; only approved ones are ever used.
      </p>
      <ProcedureManager
        agentId={agent.id}
        procedures={procedures}
        actions={{ create: createProcedureAction, update: updateProcedureAction, setStatus: setProcedureStatusAction, remove: deleteProcedureAction }}
      />
    </div>
  );
}
