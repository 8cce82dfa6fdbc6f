import { notFound } from "next/navigation";
import { ConversationView } from "@/components/conversation/conversation-view";
import { getConversation } from "@/lib/conversations/list-conversations";
import { listMessages } from "@/lib/conversations/list-messages";
import { listParticipants } from "@/lib/conversations/list-participants";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { getProjectDirectory } from "@/lib/projects/project-directory";
import { addAgentToConversationAction, deleteMyEpisodeAction, endSessionAction, listMyEpisodesAction, postMessageAction } from "../../actions";

export default async function ConversationPage({ params }: { params: Promise<{ conversationId: string }> }) {
  const { conversationId } = await params;
  if (!conversationIdSchema.safeParse(conversationId).success) notFound();
  const user = await requireCurrentUser();
  const { db } = await getRuntime();
  // A conversation the user is not in looks the same as one that does not exist.
  const conversation = await getConversation(db.prisma, { userId: user.id, conversationId });
  if (!conversation) notFound();
  const [initialPage, participants, directory] = await Promise.all([
    listMessages(db.prisma, { userId: user.id, conversationId }),
    listParticipants(db.prisma, { userId: user.id, conversationId }),
    getProjectDirectory(db.prisma, { userId: user.id }),
  ]);
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
      initialPage={initialPage}
      postMessage={postMessageAction}
      addableAgents={addableAgents}
      addAgent={addAgentToConversationAction}
      memory={{ endSession: endSessionAction, list: listMyEpisodesAction, remove: deleteMyEpisodeAction }}
    />
  );
}
