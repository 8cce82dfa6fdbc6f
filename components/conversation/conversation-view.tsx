"use client";

import { useRouter } from "next/navigation";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from "react";
import { manageRefusal } from "@/lib/conversations/conversation-permissions";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import type { MessagePage } from "@/lib/conversations/list-messages";
import { authorName, type MessageDto } from "@/lib/conversations/message-dto";
import type { PanelChoice } from "@/lib/panels/list-panel-choices";
import { PANEL_HANDLE } from "@/lib/panels/panel-rules";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { flattenMessages } from "@/hooks/message-cache";
import { useAttachmentUploads } from "@/hooks/use-attachment-uploads";
import { useConversationMessages } from "@/hooks/use-conversation-messages";
import { useLiveConversation } from "@/hooks/use-live-conversation";
import { useLiveReplies } from "@/hooks/use-live-replies";
import { useMarkRead } from "@/hooks/use-mark-read";
import { useMessageChanges, type MessageChangeActions, type MessageChanges } from "@/hooks/use-message-changes";
import { useQueuedTurns } from "@/hooks/use-queued-turns";
import { useSendMessage, type PostMessageAction } from "@/hooks/use-send-message";
import { useTyping } from "@/hooks/use-typing";
import { ContextInspector } from "@/components/inspector/context-inspector";
import { ForkPanel } from "@/components/handoffs/fork-panel";
import type { AddAgentAction } from "./add-agent-menu";
import { ArchivedNotice } from "./archived-notice";
import { Composer } from "./composer";
import { composerHint } from "./composer-hint";
import { ConnectionBanner } from "./connection-banner";
import { ConversationHeader, type HeaderManagement, type HeaderMemoryActions } from "./conversation-header";
import { ConversationTimeline, useTimelineRows, type TimelineContext, type TimelineRow } from "./conversation-timeline";
import { FindBar, useFindInConversation } from "./find-in-conversation";
import { messageLink, type MessageContext } from "./message-item";
import type { MentionHandles } from "./remark-mentions";
import { useHistoryScroll } from "./use-history-scroll";
import { useManageConversation } from "./use-manage-conversation";

interface ConversationViewProps {
  userId: string;
  /** Admins may stop any agent reply; others only the replies to their own messages. */
  isAdmin: boolean;
  /** Debug and admin users may inspect what an agent saw. */
  canInspect: boolean;
  conversation: ConversationSummary;
  participants: ParticipantDto[];
  /** Handles of the project's agents, so a DM can say agents do not take part there. */
  projectAgentHandles: string[];
  /** The project's saved panels, offered by @completion in group conversations. */
  savedPanels: PanelChoice[];
  initialPage: MessagePage;
  postMessage: PostMessageAction;
  addableAgents: ProjectDirectory["agents"];
  addAgent: AddAgentAction;
  memory: HeaderMemoryActions;
  management: HeaderManagement;
  /** A fork to show beside the thread on arrival (`?fork=` in the address). */
  initialForkId: string | null;
  messageActions: MessageChangeActions;
  /** Opened at a message (`?at=` in the address: a link, a search result): it is shown and marked. */
  anchorSeq: number | null;
}

export function ConversationView({ userId, isAdmin, canInspect, conversation, participants, projectAgentHandles, savedPanels, initialPage, postMessage, addableAgents, addAgent, memory, management, initialForkId, messageActions, anchorSeq }: ConversationViewProps) {
  const router = useRouter();
  // Renamed, given a topic or archived since the page was rendered (here or by someone else).
  const live = useLiveConversation(conversation);
  const unarchiving = useManageConversation(conversation.id, management.actions);
  const { data, hasOlder, loadingOlder, olderError, loadOlder, received, changed } = useConversationMessages(conversation.id, initialPage);
  const changes = useMessageChanges(messageActions, changed);
  const [replyingTo, setReplyingTo] = useState<MessageDto | null>(null);
  const uploads = useAttachmentUploads(conversation.id);
  const { pending, send, retry, discard, unknownMentions, refusal } = useSendMessage(conversation.id, postMessage, received);
  const typing = useTyping(conversation.id, userId);
  // Re-renders this view only when a reply starts or ends; its pieces render the reply's bubble alone.
  const replies = useLiveReplies(conversation.id);
  const queued = useQueuedTurns(conversation.id);
  const messages = useMemo(() => flattenMessages(data), [data]);
  // Where each loaded page begins (its oldest message), and where the page the view opened with did.
  const pageStarts = useMemo(() => new Set((data?.pages ?? []).flatMap((page) => page.messages.at(-1)?.id ?? [])), [data]);
  const [openingPageStart] = useState(() => initialPage.messages.at(-1)?.id ?? null);
  const latestSeq = messages.at(-1)?.seq ?? 0;
  // The socket can deliver a sent message before the send itself answers: show it once.
  const unconfirmed = useMemo(() => {
    const confirmedClientIds = new Set(messages.map((message) => message.clientId));
    return pending.filter((item) => !confirmedClientIds.has(item.clientId));
  }, [messages, pending]);
  // Where the person left off when they opened the conversation: the divider stays put.
  const [readUpTo] = useState(conversation.lastReadSeq);
  const [openedAt] = useState(initialPage.messages[0]?.seq ?? 0);
  const composerInput = useRef<HTMLTextAreaElement>(null);
  const [lastSent, setLastSent] = useState("");
  const [inspecting, setInspecting] = useState<string | null>(null);
  const [openFork, setOpenFork] = useState<string | null>(initialForkId);
  // The open fork is part of the address, so it can be shared and survives a reload.
  const showFork = useCallback((forkId: string | null) => {
    setOpenFork(forkId);
    const url = new URL(window.location.href);
    if (forkId) url.searchParams.set("fork", forkId);
    else url.searchParams.delete("fork");
    window.history.replaceState(window.history.state, "", url);
  }, []);
  const rows = useTimelineRows({ messages, pageStarts, complete: !hasOlder, readUpTo, openedAt, userId, pending: unconfirmed });
  // Read when scrolling to a message (a link, find), not a reason to scroll again when rows change.
  const latestRows = useRef(rows);
  useLayoutEffect(() => {
    latestRows.current = rows;
  });
  const rowOfSeq = useCallback((seq: number) => latestRows.current.findIndex((row) => row.kind === "group" && row.group.messages.some((message) => message.seq === seq)), []);
  const scroll = useHistoryScroll({
    rows,
    anchorKey: openingPageStart,
    messagesIn,
    followAtFirst: anchorSeq === null,
    rowOfSeq,
    hasOlder,
    loadingOlder,
    loadOlder: useCallback(() => void loadOlder(), [loadOlder]),
  });
  const { atBottom, scrollToBottom } = scroll;
  const panels = useMemo(() => ({ allowed: conversation.type === "group", saved: savedPanels }), [conversation.type, savedPanels]);
  const handles = useMemo<MentionHandles>(() => {
    const panelHandles = panels.allowed ? [PANEL_HANDLE, ...panels.saved.map((panel) => panel.handle)] : [];
    const known = new Set([...participants.map((participant) => participant.handle), ...panelHandles].map((handle) => handle.toLowerCase()));
    return { known, mine: participants.find((participant) => participant.id === userId)?.handle.toLowerCase() ?? null };
  }, [participants, panels, userId]);
  const askers = useMemo(() => new Map(messages.map((message) => [message.id, message.author.kind === "user" ? message.author.id : null])), [messages]);
  const canStop = useCallback((replyToMessageId: string) => isAdmin || askers.get(replyToMessageId) === userId, [isAdmin, askers, userId]);
  const messageContext = useMessageContext({ userId, isAdmin, changes, messages, askers, readOnly: live.archived, onReply: setReplyingTo, composerInput });
  const [initialRow] = useState(() => {
    const index = anchorSeq === null ? -1 : rows.findIndex((row) => row.kind === "group" && row.group.messages.some((message) => message.seq === anchorSeq));
    return index < 0 ? null : index;
  });
  const [highlighted, setHighlighted] = useAnchor(anchorSeq, scroll.scrollToMessage);
  const find = useFindInConversation({ messages, scrollToMessage: scroll.scrollToMessage, setHighlighted });
  const header = loadingOlder
    ? "Loading older messages…"
    : olderError
      ? `${olderError} Scroll up to try again.`
      : hasOlder
        ? null
        : messages.length > 0
          ? "This is the beginning of the conversation."
          : "No messages yet. Say hello!";
  const timelineContext = useMemo<TimelineContext>(
    () => ({
      handles,
      onInspect: canInspect ? setInspecting : undefined,
      onOpenFork: showFork,
      context: messageContext,
      highlighted,
      live: replies.store,
      queued,
      canStop,
      onStop: replies.stop,
      onRetry: retry,
      onDiscard: discard,
      header,
      observeList: scroll.observeList,
      observeFooter: scroll.observeFooter,
    }),
    [handles, canInspect, showFork, messageContext, highlighted, replies.store, queued, canStop, replies.stop, retry, discard, header, scroll.observeList, scroll.observeFooter],
  );

  useMarkRead(conversation.id, latestSeq, atBottom, conversation.lastReadSeq);

  // A notice that arrives live (someone added an agent) changes who is here: reload the participants.
  const latestNoticeSeq = messages.findLast((message) => message.role === "system")?.seq ?? 0;
  const [noticeSeqAtOpen] = useState(latestNoticeSeq);
  useEffect(() => {
    if (latestNoticeSeq > noticeSeqAtOpen) router.refresh();
  }, [latestNoticeSeq, noticeSeqAtOpen, router]);

  // Opening a conversation puts the keyboard in its composer (not on phones: no keyboard pops up),
  // unless the person is already typing in another field (a form opened while the page loaded) or
  // it opens at a message (useAnchor gives the keyboard to that message).
  useEffect(() => {
    if (anchorSeq !== null) return;
    const active = document.activeElement;
    if (active instanceof HTMLElement && (active.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(active.tagName))) return;
    if (window.matchMedia("(min-width: 768px)").matches) composerInput.current?.focus();
    else document.getElementById("conversation-title")?.focus();
  }, [anchorSeq]);

  const send_ = (content: string) => {
    setLastSent(content);
    typing.stopped();
    scrollToBottom();
    send(content, { replyToMessageId: replyingTo?.id, attachmentIds: uploads.readyIds });
    setReplyingTo(null);
    uploads.clear();
  };

  // An agent chat named after its first message is still a message to its agent.
  const label = conversation.type === "group" ? `Message #${live.title}` : `Message ${conversation.peer?.name ?? conversation.title}`;
  const hint = composerHint({ conversation, participants, projectAgentHandles, unknownMentions, lastSent });

  return (
    <div className="flex h-full min-h-0">
      <section className="flex h-full min-h-0 min-w-0 flex-1 flex-col" aria-label={`Conversation ${live.title}`}>
        <ConversationHeader conversation={live} participants={participants} addableAgents={addableAgents} addAgent={addAgent} memory={memory} management={management} onOpenFork={showFork} />
        <ConnectionBanner />
        <FindBar find={find} conversationId={conversation.id} />
        <div className="relative min-h-0 flex-1">
          <ConversationTimeline rows={rows} context={timelineContext} initialRow={initialRow} virtuosoProps={scroll.virtuosoProps} />
          {!atBottom && (
            <button
              type="button"
              onClick={scrollToBottom}
              className="absolute bottom-3 left-1/2 -translate-x-1/2 rounded-full bg-brand-600 px-4 py-1.5 text-sm font-semibold text-white shadow-lg hover:bg-brand-700"
            >
              Jump to latest
            </button>
          )}
        </div>
        {inspecting && <ContextInspector turnId={inspecting} messages={messages} onClose={() => setInspecting(null)} />}
        <p aria-live="polite" className="h-5 truncate px-4 text-xs italic text-muted">
          {typing.label}
        </p>
        {live.archived ? (
          <ArchivedNotice canUnarchive={manageRefusal(live, management.actor, "archive") === null} manager={unarchiving} />
        ) : (
          <Composer
            inputRef={composerInput}
            label={label}
            participants={participants.filter((participant) => participant.id !== userId)}
            panels={panels}
            onSend={send_}
            onTyping={typing.typed}
            hint={hint}
            refusal={refusal}
            notice={changes.notice}
            files={uploads}
            replyingTo={replyingTo && { authorName: authorName(replyingTo.author), excerpt: replyingTo.content.slice(0, 120), onCancel: () => setReplyingTo(null) }}
          />
        )}
      </section>
      {openFork && <ForkPanel key={openFork} forkId={openFork} userId={userId} onClose={() => showFork(null)} />}
    </div>
  );
}

const messagesIn = (row: TimelineRow) => (row.kind === "group" ? row.group.messages.length : 0);

/**
 * What every message's controls share: who may do what, and the conversation's reply and link
 * actions. One object for the life of the view, so that no message renders again because another
 * changed: its functions and the two facts that change (who asked each question, which message
 * may be sent again) read the latest values; the list passes those facts to each group as well,
 * so a group renders again when they change for its messages.
 */
function useMessageContext({
  userId,
  isAdmin,
  changes,
  messages,
  askers,
  readOnly,
  onReply,
  composerInput,
}: Pick<MessageContext, "userId" | "isAdmin" | "changes" | "readOnly"> & { messages: MessageDto[]; askers: Map<string, string | null>; onReply: (message: MessageDto) => void; composerInput: RefObject<HTMLTextAreaElement | null> }): MessageContext {
  const resendableId = useMemo(() => {
    const latestOwn = messages.findLast((message) => message.author.kind === "user" && message.author.id === userId && !message.deleted);
    const answered = latestOwn && messages.some((message) => message.author.kind === "agent" && message.metadata.replyToMessageId === latestOwn.id);
    return answered ? latestOwn.id : null;
  }, [messages, userId]);
  const latest = useRef({ changes, askers, resendableId, onReply });
  useLayoutEffect(() => {
    latest.current = { changes, askers, resendableId, onReply };
  });
  // The changes' functions, stable; their notice (shown by the composer) is not read by messages.
  const stableChanges = useMemo<MessageChanges>(
    () => ({
      get notice() {
        return latest.current.changes.notice;
      },
      say: (text) => latest.current.changes.say(text),
      edit: (messageId, content, resend) => latest.current.changes.edit(messageId, content, resend),
      remove: (messageId) => latest.current.changes.remove(messageId),
      regenerate: (messageId) => latest.current.changes.regenerate(messageId),
      showVersion: (messageId, version) => latest.current.changes.showVersion(messageId, version),
      react: (messageId, emoji, reacted) => latest.current.changes.react(messageId, emoji, reacted),
      listVersions: (messageId) => latest.current.changes.listVersions(messageId),
    }),
    [],
  );
  return useMemo<MessageContext>(
    () => ({
      userId,
      isAdmin,
      changes: stableChanges,
      readOnly,
      get resendableId() {
        return latest.current.resendableId;
      },
      askerOf: (message) => (message.metadata.replyToMessageId ? (latest.current.askers.get(message.metadata.replyToMessageId) ?? null) : null),
      onReply: (message) => {
        latest.current.onReply(message);
        composerInput.current?.focus();
      },
      onCopyLink: (message) => {
        const url = new URL(messageLink(message), window.location.origin).toString();
        const copied = navigator.clipboard ? navigator.clipboard.writeText(url) : Promise.reject(new Error("no clipboard"));
        void copied.then(
          () => latest.current.changes.say("Link copied."),
          () => latest.current.changes.say(`Copy this link: ${url}`),
        );
      },
    }),
    [userId, isAdmin, readOnly, stableChanges, composerInput],
  );
}

/** Opened at a message: it is scrolled into view, focused and marked for a few seconds. */
function useAnchor(anchorSeq: number | null, scrollToMessage: (seq: number) => boolean): [number | null, (seq: number | null) => void] {
  const [highlighted, setHighlighted] = useState(anchorSeq);
  useEffect(() => {
    if (anchorSeq === null) return;
    scrollToMessage(anchorSeq);
    const timer = setTimeout(() => setHighlighted((current) => (current === anchorSeq ? null : current)), 6_000);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, where the view opened
  }, [anchorSeq]);
  return [highlighted, setHighlighted];
}
