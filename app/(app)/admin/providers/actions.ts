"use server";

import { adminAction } from "@/lib/actions/safe-action";
import { adminProject } from "@/lib/agents/manage-agents";
import { deleteProvider, providerIdSchema, providerInputSchema, saveProvider, testProvider } from "@/lib/providers/manage-providers";

export const saveProviderAction = adminAction("save-provider", providerInputSchema, async (input, { runtime, user }) =>
  saveProvider({ prisma: runtime.db.prisma, secrets: runtime.secrets }, { projectId: await adminProject(runtime.db.prisma, user), input }),
);

export const testProviderAction = adminAction("test-provider", providerIdSchema, async ({ providerId }, { runtime, user }) =>
  testProvider({ prisma: runtime.db.prisma, secrets: runtime.secrets }, { projectId: await adminProject(runtime.db.prisma, user), providerId }),
);

export const deleteProviderAction = adminAction("delete-provider", providerIdSchema, async ({ providerId }, { runtime, user }) =>
  deleteProvider(runtime.db.prisma, { projectId: await adminProject(runtime.db.prisma, user), providerId }),
);
