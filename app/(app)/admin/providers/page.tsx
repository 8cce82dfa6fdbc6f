import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { ProvidersAdmin } from "@/components/admin/providers-admin";
import { adminProject } from "@/lib/agents/manage-agents";
import { listProviders } from "@/lib/providers/manage-providers";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { deleteProviderAction, saveProviderAction, testProviderAction } from "./actions";

export default async function ProvidersPage() {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db } = await getRuntime();
  const providers = await listProviders(db.prisma, { projectId: await adminProject(db.prisma, user) });
  return (
    <AdminSubpage
      crumb="Providers"
      title="Providers"
      intro="OpenAI-compatible endpoints agents can answer through, besides the offline model and the server's own endpoint (OPENAI_BASE_URL). A provider is saved only once it lists its models; keys are encrypted at rest and never shown again."
    >
      <ProvidersAdmin providers={providers} save={saveProviderAction} test={testProviderAction} remove={deleteProviderAction} />
    </AdminSubpage>
  );
}
