"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { handoffSettingsSchema, routingRuleSchema } from "@/lib/handoffs/handoff-settings";
import { saveHandoffSettings, testRoutingRules } from "@/lib/handoffs/manage-handoffs";
import { agentOfAdmin } from "@/lib/knowledge/upload-document";

const agentId = z.string().min(1, "Choose an agent.");

// Flat, so that field errors are named as the form names them (`routes.0.pattern`).
export const saveHandoffSettingsAction = adminAction("save-handoff-settings", z.object({ agentId }).and(handoffSettingsSchema), ({ agentId, ...settings }, { runtime, user }) =>
  saveHandoffSettings(runtime.db.prisma, { actor: user, agentId, settings }),
);

/** "Test this message": the rules as they stand in the form, saved or not (each checked like a saved one). */
export const testRoutingAction = adminAction(
  "test-routing",
  z.object({ agentId, routes: z.array(routingRuleSchema).max(50), message: z.string().max(10_000, "Keep the test message under 10,000 characters.") }),
  async ({ agentId, routes, message }, { runtime, user }) => {
    await agentOfAdmin(runtime.db.prisma, { actor: user, agentId });
    return testRoutingRules({ routes }, message);
  },
);
