import { forbidden } from "next/navigation";
import { AgentForm } from "@/components/admin/agent-form";
import { defaultContextSettings } from "@/lib/agents/agent-settings";
import { adminProject } from "@/lib/agents/manage-agents";
import { listProviders } from "@/lib/providers/manage-providers";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { createAgentAction } from "../actions";

const blank = {
  handle: "",
  displayName: "",
  color: "#6366f1",
  description: "",
  systemPrompt: "",
  provider: "offline",
  model: "offline",
  temperature: 0.7,
  maxOutputTokens: 1024,
  historyWindow: 50,
  monthlyTokenCap: null,
  inputUsdPerMillion: null,
  outputUsdPerMillion: null,
  ...defaultContextSettings,
};

export default async function NewAgentPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db, env } = await getRuntime();
  const providers = await listProviders(db.prisma, { projectId: await adminProject(db.prisma, user) });
  return (
    <div className="mx-auto max-w-3xl p-6">
      <h1 className="mb-4 text-2xl font-bold">New agent</h1>
      <AgentForm initial={blank} providers={providers} save={createAgentAction} submitLabel="Create agent" openaiConfigured={Boolean(env.OPENAI_API_KEY)} />
    </div>
  );
}
