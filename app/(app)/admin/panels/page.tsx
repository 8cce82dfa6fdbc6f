import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { SavedPanels } from "@/components/admin/saved-panels";
import { listSavedPanels } from "@/lib/panels/manage-saved-panels";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { deleteSavedPanelAction, saveSavedPanelAction } from "./actions";

export default async function SavedPanelsPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db } = await getRuntime();
  const { panels, agents } = await listSavedPanels(db.prisma, { actor: user });
  return (
    <AdminSubpage
      crumb="Saved panels"
      title="Saved panels"
      intro={
        <>
          A saved panel is asked by its handle in any channel (e.g. <code>@review-board is this ready?</code>): its agents answer together, see each other&apos;s answers and vote.
          Anyone can also ask an ad hoc panel with <code>@panel @toby @ada …</code>.
        </>
      }
    >
      <SavedPanels panels={panels} agents={agents} actions={{ save: saveSavedPanelAction, remove: deleteSavedPanelAction }} />
    </AdminSubpage>
  );
}
