import { forbidden, notFound } from "next/navigation";
import { AgentForm } from "@/components/admin/agent-form";
import { providerChoiceOf } from "@/lib/agents/agent-settings";
import { adminProject, getAgent } from "@/lib/agents/manage-agents";
import { listProviders } from "@/lib/providers/manage-providers";
import { AppError } from "@/lib/errors/app-error";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { agentMonthlyCap, capWarningText } from "@/lib/usage/monthly-cap";
import { updateAgentAction } from "../actions";

export default async function EditAgentPage({ params }: { params: Promise<{ agentId: string }> }) {
  const { agentId } = await params;
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db, env } = await getRuntime();
  const agent = await getAgent(db.prisma, { actor: user, agentId }).catch((error: unknown) => {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  });
  const [cap, providers] = await Promise.all([agentMonthlyCap(db.prisma, agent.id), adminProject(db.prisma, user).then((projectId) => listProviders(db.prisma, { projectId }))]);
  return (
    <div className="mx-auto max-w-3xl p-6">
      <h1 className="mb-4 text-2xl font-bold">Edit {agent.displayName}</h1>
      {cap?.warn && <p className="mb-4 rounded-md bg-red-50 px-3 py-2 text-sm text-red-700 dark:bg-red-950 dark:text-red-300">{capWarningText(cap)}</p>}
      <AgentForm initial={{ ...agent, provider: providerChoiceOf(agent), ...agent.contextSettings }} providers={providers} save={updateAgentAction} agentId={agent.id} submitLabel="Save changes" openaiConfigured={Boolean(env.OPENAI_API_KEY)} />
    </div>
  );
}
