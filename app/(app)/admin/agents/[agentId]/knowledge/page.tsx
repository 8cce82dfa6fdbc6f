import Link from "next/link";
import { KnowledgeManager } from "@/components/memory/knowledge-manager";
import { listDocuments } from "@/lib/knowledge/manage-documents";
import { loadAdminAgent } from "../load-agent";

export default async function KnowledgePage({ params }: { params: Promise<{ agentId: string }> }) {
  const { user, runtime, agent } = await loadAdminAgent((await params).agentId);
  const documents = await listDocuments(runtime.db.prisma, { actor: user, agentId: agent.id });
  return (
    <div className="mx-auto max-w-3xl space-y-4 p-4 sm:p-6">
      <p className="text-sm">
        <Link href="/admin/agents" className="text-link underline">
          Agents
        </Link>{" "}
        / {agent.displayName}
      </p>
      <h1 className="text-2xl font-bold">{agent.displayName}&apos;s knowledge</h1>
      <p className="text-sm text-muted">
        Files {agent.displayName} can quote: before answering, it searches them for the passages closest to the question. Upload .md, .txt or .pdf files of up to 10
        MB; a file with the name of an existing one replaces it once indexed.
      </p>
      <KnowledgeManager agentId={agent.id} initial={documents} memoryEnabled={runtime.memory !== null} />
    </div>
  );
}
