"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { agentConfigSchema } from "@/lib/agents/agent-settings";
import { createAgent, setAgentEnabled, updateAgent } from "@/lib/agents/manage-agents";

const agentId = z.string().min(1, "Choose an agent.");

export const createAgentAction = adminAction("create-agent", agentConfigSchema, (config, { runtime, user }) =>
  createAgent(runtime.db.prisma, { actor: user, config }),
);

export const updateAgentAction = adminAction("update-agent", z.object({ agentId }).and(agentConfigSchema), ({ agentId, ...config }, { runtime, user }) =>
  updateAgent(runtime.db.prisma, { actor: user, agentId, config }),
);

export const setAgentEnabledAction = adminAction("set-agent-enabled", z.object({ agentId, enabled: z.boolean() }), (input, { runtime, user }) =>
  setAgentEnabled(runtime.db.prisma, { actor: user, ...input }),
);
