import { forbidden } from "next/navigation";
import { AgentForm } from "@/components/admin/agent-form";
import { defaultContextSettings } from "@/lib/agents/agent-settings";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { createAgentAction } from "../actions";

const blank = {
  handle: "",
  displayName: "",
  color: "#6366f1",
  description: "",
  systemPrompt: "",
  provider: "offline" as const,
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
  const { env } = await getRuntime();
  return (
    <div className="mx-auto max-w-3xl p-6">
      <h1 className="mb-4 text-2xl font-bold">New agent</h1>
      <AgentForm initial={blank} save={createAgentAction} submitLabel="Create agent" openaiConfigured={Boolean(env.OPENAI_API_KEY)} />
    </div>
  );
}
