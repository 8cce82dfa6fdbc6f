import { notFound } from "next/navigation";
import { ConversationView } from "@/components/conversation/conversation-view";
import { ForkPage } from "@/components/handoffs/fork-page";
import { getConversation } from "@/lib/conversations/list-conversations";
import { listMessages } from "@/lib/conversations/list-messages";
import { listParticipants } from "@/lib/conversations/list-participants";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { readFork } from "@/lib/handoffs/read-forks";
import { listPanelChoices } from "@/lib/panels/list-panel-choices";
import { AppError } from "@/lib/errors/app-error";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { addAgentToConversationAction, deleteMyEpisodeAction, endSessionAction, listMyEpisodesAction, readSessionEndAction, postMessageAction } from "../../actions";

export default async function ConversationPage({ params, searchParams }: { params: Promise<{ conversationId: string }>; searchParams: Promise<{ fork?: string | string[] }> }) {
  const { conversationId } = await params;
  if (!conversationIdSchema.safeParse(conversationId).success) notFound();
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  // A conversation the user is not in looks the same as one that does not exist.
  const conversation = await getConversation(db.prisma, { userId: user.id, conversationId });
  if (!conversation) {
    // A forked context has its own address; its readers are the root conversation's participants.
    const fork = await readFork(db.prisma, { userId: user.id, forkId: conversationId }).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") notFound();
      throw error;
    });
    return <ForkPage fork={fork} userId={user.id} />;
  }
  const [initialPage, participants, directory, savedPanels] = await Promise.all([
    listMessages(db.prisma, { userId: user.id, conversationId }),
    listParticipants(db.prisma, { userId: user.id, conversationId }),
    getProjectDirectory(db.prisma, { userId: user.id }),
    conversation.type === "group" ? listPanelChoices(db.prisma, { projectId: conversation.projectId }) : [],
  ]);
  const { fork } = await searchParams;
  const initialForkId = typeof fork === "string" && conversationIdSchema.safeParse(fork).success ? fork : null;
  // Agents of the project not yet here, offered by "Add agent" in group conversations.
  const addableAgents = conversation.type === "group" ? (directory?.agents ?? []).filter((agent) => !participants.some((participant) => participant.id === agent.id)) : [];
  return (
    <ConversationView
      key={conversation.id}
      userId={user.id}
      isAdmin={user.role === "admin"}
      canInspect={user.role === "admin" || user.role === "debug"}
      projectAgentHandles={(directory?.agents ?? []).map((agent) => agent.handle)}
      conversation={conversation}
      participants={participants}
      savedPanels={savedPanels}
      initialPage={initialPage}
      postMessage={postMessageAction}
      addableAgents={addableAgents}
      addAgent={addAgentToConversationAction}
      memory={{ endSession: endSessionAction, readSessionEnd: readSessionEndAction, list: listMyEpisodesAction, remove: deleteMyEpisodeAction }}
      initialForkId={initialForkId}
    />
  );
}
