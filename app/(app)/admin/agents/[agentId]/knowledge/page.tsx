import { AdminSubpage } from "@/components/admin/admin-subpage";
import { KnowledgeManager } from "@/components/memory/knowledge-manager";
import { listDocuments } from "@/lib/knowledge/manage-documents";
import { loadAdminAgent } from "../load-agent";

export default async function KnowledgePage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const documents = await listDocuments(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <AdminSubpage
      crumb={agent.displayName}
      title={`${agent.displayName}'s knowledge`}
      intro={
        <>
          Files {agent.displayName} can quote: before answering, it searches them for the passages that best match the question, by meaning and by its exact words. Upload Word documents, PDFs, web
          pages, text, CSV, JSON or source code of up to 10 MB; a file with the name of an existing one replaces it once indexed.
        </>
      }
    >
      <KnowledgeManager agentId={agent.id} initial={documents} memoryEnabled={runtime.memory !== null} />
    </AdminSubpage>
  );
}
