"use client";

import { useRouter } from "next/navigation";
import { useEffect, useLayoutEffect, useRef, useState } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { parseMentions } from "@/lib/conversations/parse-mentions";
import type { MessagePage } from "@/lib/conversations/list-messages";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { flattenMessages } from "@/hooks/message-cache";
import { useConversationMessages } from "@/hooks/use-conversation-messages";
import { useLiveReplies } from "@/hooks/use-live-replies";
import { useMarkRead } from "@/hooks/use-mark-read";
import { useSendMessage, type PostMessageAction } from "@/hooks/use-send-message";
import { useTyping } from "@/hooks/use-typing";
import type { AddAgentAction } from "./add-agent-menu";
import { Composer } from "./composer";
import { ConnectionBanner } from "./connection-banner";
import { ConversationHeader } from "./conversation-header";
import { LiveReplies } from "./live-replies";
import { MessageList } from "./message-list";
import { PendingMessages } from "./pending-messages";

/** How close to the bottom counts as "at the bottom" (px). */
const BOTTOM_SLACK = 48;

interface ConversationViewProps {
  userId: string;
  conversation: ConversationSummary;
  participants: ParticipantDto[];
  initialPage: MessagePage;
  postMessage: PostMessageAction;
  addableAgents: ProjectDirectory["agents"];
  addAgent: AddAgentAction;
}

export function ConversationView({ userId, conversation, participants, initialPage, postMessage, addableAgents, addAgent }: ConversationViewProps) {
  const router = useRouter();
  const { data, fetchNextPage, hasNextPage, isFetchingNextPage, received } = useConversationMessages(conversation.id, initialPage);
  const { pending, send, retry, discard, unknownMentions } = useSendMessage(conversation.id, postMessage, received);
  const typing = useTyping(conversation.id, userId);
  const replies = useLiveReplies(conversation.id);
  const liveText = replies.live.reduce((length, reply) => length + reply.text.length, 0);
  const messages = flattenMessages(data);
  const latestSeq = messages.at(-1)?.seq ?? 0;
  // The socket can deliver a sent message before the send itself answers: show it once.
  const confirmedClientIds = new Set(messages.map((message) => message.clientId));
  const unconfirmed = pending.filter((item) => !confirmedClientIds.has(item.clientId));
  // Where the person left off when they opened the conversation: the divider stays put.
  const [readUpTo] = useState(conversation.lastReadSeq);
  const [openedAt] = useState(initialPage.messages[0]?.seq ?? 0);
  const scroller = useRef<HTMLDivElement>(null);
  const [atBottom, setAtBottom] = useState(true);
  const [lastSent, setLastSent] = useState("");

  useMarkRead(conversation.id, latestSeq, atBottom, conversation.lastReadSeq);

  // A notice that arrives live (someone added an agent) changes who is here: reload the participants.
  const latestNoticeSeq = messages.findLast((message) => message.role === "system")?.seq ?? 0;
  const [noticeSeqAtOpen] = useState(latestNoticeSeq);
  useEffect(() => {
    if (latestNoticeSeq > noticeSeqAtOpen) router.refresh();
  }, [latestNoticeSeq, noticeSeqAtOpen, router]);

  const scrollToBottom = () => {
    const element = scroller.current;
    if (element) element.scrollTop = element.scrollHeight;
  };

  // Follow new messages only while the person is at the bottom; otherwise offer a jump.
  useLayoutEffect(() => {
    if (atBottom) scrollToBottom();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only new content should scroll
  }, [latestSeq, unconfirmed.length, liveText]);

  useEffect(scrollToBottom, [conversation.id]);

  const onScroll = () => {
    const element = scroller.current;
    if (!element) return;
    setAtBottom(element.scrollHeight - element.scrollTop - element.clientHeight < BOTTOM_SLACK);
    if (element.scrollTop < 40 && hasNextPage && !isFetchingNextPage) void fetchNextPage();
  };

  const send_ = (content: string) => {
    setLastSent(content);
    typing.stopped();
    setAtBottom(true);
    send(content);
  };

  const label = conversation.type === "group" ? `Message #${conversation.title}` : `Message ${conversation.title}`;
  const hint = composerHint({ conversation, participants, unknownMentions, lastSent });

  return (
    <section className="flex h-full min-h-0 flex-col" aria-label={`Conversation ${conversation.title}`}>
      <ConversationHeader conversation={conversation} participants={participants} addableAgents={addableAgents} addAgent={addAgent} />
      <ConnectionBanner />
      <div className="relative min-h-0 flex-1">
        <div ref={scroller} onScroll={onScroll} className="h-full overflow-y-auto" data-testid="message-scroller">
          {hasNextPage && (
            <div className="flex justify-center py-2">
              <button type="button" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage} className="text-sm text-brand-600 hover:underline disabled:opacity-50">
                {isFetchingNextPage ? "Loading…" : "Load older messages"}
              </button>
            </div>
          )}
          <ol aria-label="Messages" className="py-2">
            <MessageList messages={messages} readUpTo={readUpTo} openedAt={openedAt} userId={userId} />
            <PendingMessages pending={unconfirmed} onRetry={retry} onDiscard={discard} />
            <LiveReplies replies={replies.live} onStop={replies.stop} />
          </ol>
        </div>
        {!atBottom && (
          <button
            type="button"
            onClick={() => {
              scrollToBottom();
              setAtBottom(true);
            }}
            className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-4 py-1.5 text-sm font-semibold text-white shadow-lg hover:bg-brand-700"
          >
            Jump to latest
          </button>
        )}
      </div>
      <p aria-live="polite" className="h-5 px-4 text-xs italic text-slate-500">
        {typing.label}
      </p>
      <Composer label={label} participants={participants.filter((participant) => participant.id !== userId)} onSend={send_} onTyping={typing.typed} hint={hint} />
    </section>
  );
}

/** What the composer says about who will not hear the last message (or any, in a disabled agent's chat). */
function composerHint({ conversation, participants, unknownMentions, lastSent }: { conversation: ConversationSummary; participants: ParticipantDto[]; unknownMentions: string[]; lastSent: string }): string | null {
  const disabled = participants.filter((participant) => participant.kind === "agent" && participant.disabled);
  if (conversation.type === "agent_dm" && disabled.length > 0) return `${disabled[0]!.name} is disabled by an admin and will not answer.`;
  const mentioned = new Set(parseMentions(lastSent));
  const silent = disabled.filter((agent) => mentioned.has(agent.handle.toLowerCase()));
  if (silent.length > 0) return `${silent.map((agent) => agent.name).join(", ")} ${silent.length > 1 ? "are" : "is"} disabled by an admin and will not answer.`;
  if (unknownMentions.length > 0) return `Nobody here is called ${unknownMentions.map((handle) => `@${handle}`).join(", ")}: nobody was notified.`;
  return null;
}
