import { notFound } from "next/navigation";
import { ConversationAccess } from "@/components/conversation/conversation-access";
import { ConversationView } from "@/components/conversation/conversation-view";
import { managerOf } from "@/lib/conversations/conversation-permissions";
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
import { getCurrentDirectory } from "@/lib/projects/current-directory";
import { addAgentToConversationAction, deleteMyEpisodeAction, endSessionAction, listMyEpisodesAction, readSessionEndAction, postMessageAction, openAgentChatAction } from "../../actions";
import { addMemberAction, removeMemberAction, setNotificationsAction, updateConversationAction } from "./actions";
import { deleteMessageAction, editMessageAction, listVersionsAction, reactAction, regenerateReplyAction, showVersionAction } from "../../message-actions";

export default async function ConversationPage({ params, searchParams }: { params: Promise<{ conversationId: string }>; searchParams: Promise<{ fork?: string | string[]; at?: string | string[] }> }) {
  const { conversationId } = await params;
  if (!conversationIdSchema.safeParse(conversationId).success) notFound();
  const { fork, at } = await searchParams;
  // A link to a message (`?at=<seq>`, from "Copy link" or search); anything else opens at the latest.
  const anchorSeq = typeof at === "string" && /^[1-9]\d{0,9}$/.test(at) ? Number(at) : null;
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
    listMessages(db.prisma, { userId: user.id, conversationId, aroundSeq: anchorSeq ?? undefined }),
    listParticipants(db.prisma, { userId: user.id, conversationId }),
    getCurrentDirectory(),
    conversation.type === "group" ? listPanelChoices(db.prisma, { projectId: conversation.projectId }) : [],
  ]);
  const initialForkId = typeof fork === "string" && conversationIdSchema.safeParse(fork).success ? fork : null;
  // Agents of the project not yet here, offered by "Add agent" in group conversations.
  const addableAgents = conversation.type === "group" ? (directory?.agents ?? []).filter((agent) => !participants.some((participant) => participant.id === agent.id)) : [];
  // People of the project not yet here, offered by the settings of a channel.
  const addablePeople = conversation.type === "group" ? (directory?.members ?? []).filter((member) => !participants.some((participant) => participant.id === member.id)) : [];
  return (
    <ConversationAccess key={conversation.id} conversationId={conversation.id} name={conversation.type === "group" ? `#${conversation.title}` : conversation.title}>
      <ConversationView
        key={`${conversation.id}:${anchorSeq ?? ""}`}
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
        management={{
          actor: managerOf(user),
          actions: { update: updateConversationAction, addMember: addMemberAction, removeMember: removeMemberAction },
          addablePeople,
          startAgentChat: openAgentChatAction,
          setNotifications: setNotificationsAction,
        }}
        initialForkId={initialForkId}
        anchorSeq={anchorSeq}
        messageActions={{ edit: editMessageAction, remove: deleteMessageAction, regenerate: regenerateReplyAction, showVersion: showVersionAction, listVersions: listVersionsAction, react: reactAction }}
      />
    </ConversationAccess>
  );
}
