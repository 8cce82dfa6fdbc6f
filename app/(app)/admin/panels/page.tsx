import Link from "next/link";
import { forbidden } from "next/navigation";
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
    <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      <p className="text-sm">
        <Link href="/admin/agents" className="text-link underline">
          Agents
        </Link>{" "}
        / Saved panels
      </p>
      <h1 className="text-2xl font-bold">Saved panels</h1>
      <p className="text-sm text-muted">
        A saved panel is asked by its handle in any channel (e.g. <code>@review-board is this ready?</code>): its agents answer together, see each other&apos;s answers and vote.
        Anyone can also ask an ad hoc panel with <code>@panel @toby @ada …</code>.
      </p>
      <SavedPanels panels={panels} agents={agents} actions={{ save: saveSavedPanelAction, remove: deleteSavedPanelAction }} />
    </div>
  );
}
