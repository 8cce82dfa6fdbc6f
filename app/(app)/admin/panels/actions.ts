"use server";

import { z } from "zod";
import { adminAction } from "@/lib/actions/safe-action";
import { deleteSavedPanel, savedPanelSchema, saveSavedPanel } from "@/lib/panels/manage-saved-panels";

const id = z.string().uuid("Choose a panel.");

export const saveSavedPanelAction = adminAction("save-saved-panel", savedPanelSchema.extend({ id: id.optional() }), ({ id, ...input }, { runtime, user }) =>
  saveSavedPanel(runtime.db.prisma, { actor: user, id, input }),
);

export const deleteSavedPanelAction = adminAction("delete-saved-panel", z.object({ id }), (input, { runtime, user }) => deleteSavedPanel(runtime.db.prisma, { actor: user, ...input }));
