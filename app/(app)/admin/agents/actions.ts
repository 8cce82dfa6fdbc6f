"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { agentConfigSchema } from "@/lib/agents/agent-settings";
import { deleteAgent, duplicateAgent } from "@/lib/agents/delete-or-copy-agent";
import { createAgent, setAgentEnabled, updateAgent } from "@/lib/agents/manage-agents";
import { announceDirectoryChange } from "@/lib/projects/announce-directory-change";
import type { Runtime } from "@/lib/runtime/runtime";

const agentId = z.string().min(1, "Choose an agent.");

/** Members' sidebars and pickers follow the change at once, not at their next navigation. */
async function announced<T>(runtime: Runtime, actorId: string, change: Promise<T>): Promise<T> {
  const result = await change;
  await announceDirectoryChange(runtime.db.prisma, runtime.realtime, { actorId });
  return result;
}

export const createAgentAction = adminAction("create-agent", agentConfigSchema, (config, { runtime, user }) =>
  announced(runtime, user.id, createAgent(runtime.db.prisma, { actor: user, config })),
);

export const updateAgentAction = adminAction("update-agent", z.object({ agentId }).and(agentConfigSchema), ({ agentId, ...config }, { runtime, user }) =>
  announced(runtime, user.id, updateAgent(runtime.db.prisma, { actor: user, agentId, config })),
);

export const setAgentEnabledAction = adminAction("set-agent-enabled", z.object({ agentId, enabled: z.boolean() }), (input, { runtime, user }) =>
  announced(runtime, user.id, setAgentEnabled(runtime.db.prisma, { actor: user, ...input })),
);

export const duplicateAgentAction = adminAction("duplicate-agent", z.object({ agentId }), (input, { runtime, user }) =>
  announced(runtime, user.id, duplicateAgent(runtime.db.prisma, { actor: user, ...input })),
);

export const deleteAgentAction = adminAction("delete-agent", z.object({ agentId }), (input, { runtime, user }) =>
  announced(runtime, user.id, deleteAgent(runtime.db.prisma, { actor: user, ...input })),
);
