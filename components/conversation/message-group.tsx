import { memo, useMemo, type LiHTMLAttributes } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { TIME_OF_DAY, useDateFormat } from "@/components/providers/preferences-provider";
import { Avatar, colourFor } from "@/components/ui/avatar";
import { HandoffNotice } from "@/components/handoffs/handoff-notice";
import { PanelOnQuestion, PanelResult } from "@/components/panels/panel-card";
import { AgentBadge } from "./agent-badge";
import { StepApprovals, stepHasContent, type ApprovalViewer } from "./approval-card";
import type { MessageGroup as Group } from "./group-messages";
import { Markdown } from "./markdown";
import { messageRow } from "./message-layout";
import { MessageAttachments } from "./message-attachments";
import { isToolMessage, MessageChrome, type MessageContext } from "./message-item";
import type { MentionHandles } from "./remark-mentions";
import { useRenderCount } from "./render-count";
import { ReplyDetails } from "./reply-details";
import { ReplySources } from "./reply-sources";
import { ToolStep } from "./tool-step";


function authorView(author: Group["author"]) {
  if (author.kind === "user") return { name: author.name, colour: author.color ?? colourFor(author.id), image: author.avatarUrl, agent: false };
  if (author.kind === "agent") return { name: author.displayName, colour: author.color, agent: true };
  return { name: "Chorus", colour: "#64748b", agent: false };
}

export interface MessageActions {
  /** Given to debug and admin users: agent replies then offer "Inspect context". */
  onInspect?: (turnId: string) => void;
  /** Opens a forked context from its handoff notice or its merged result. */
  onOpenFork?: (forkId: string) => void;
  /** Edit, delete, react, reply… (absent where messages are only read, as in a fork). */
  context?: MessageContext;
}

/** The list item of a group: who wrote it, for screen readers; a system line keeps its seq for links. */
export function groupRowProps(group: Group): LiHTMLAttributes<HTMLLIElement> & { "data-seq"?: number } {
  if (group.author.kind === "system") return { className: "px-4 py-2 text-center text-sm text-muted", "data-seq": group.messages[0]!.seq };
  return { className: `${messageRow} px-3 py-2 hover:bg-slate-50 sm:px-4 dark:hover:bg-slate-900/60`, "aria-label": `Messages from ${authorView(group.author).name}` };
}

interface GroupProps extends MessageActions {
  group: Group;
  handles: MentionHandles;
  /** The seq of the message marked (opened at, found); only the group holding it needs it. */
  highlighted?: number | null;
}

/** One author's run of messages as a list item (a fork's list, tests); the conversation's list places the content in its own rows. */
export function MessageGroup(props: GroupProps) {
  return (
    <li {...groupRowProps(props.group)}>
      <MessageGroupContent {...props} />
    </li>
  );
}

/** The same messages, in the same order, as the same objects: the cache keeps a message's object until it changes. */
function sameGroup(a: Group, b: Group): boolean {
  return a === b || (a.key === b.key && a.messages.length === b.messages.length && a.messages.every((message, index) => message === b.messages[index]));
}

/**
 * A group's contents, rendered again only when its messages or what they show change: never
 * because another message arrived, changed or streamed. `askers` and `resendableId` are what the
 * (stable) context says of this group's messages now, passed so that a change of them renders it.
 */
export const MessageGroupContent = memo(
  function MessageGroupContent({ group, handles, onInspect, onOpenFork, context, highlighted }: GroupProps & { askers?: string; resendableId?: string | null }) {
    const first = group.messages[0]!;
    const view = authorView(group.author);
    const timeFormat = useDateFormat(TIME_OF_DAY);
    if (group.author.kind === "system") {
      return group.messages.map((message) => (
        <p key={message.id} className="whitespace-pre-wrap">
          {message.content}
        </p>
      ));
    }
    return (
      <>
        <Avatar name={view.name} colour={view.colour} image={view.image} />
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-baseline gap-x-2">
            <span className="font-semibold text-slate-900 dark:text-slate-100">{view.name}</span>
            {view.agent && <AgentBadge offline={first.metadata.provider === "offline"} />}
            <time className="text-xs text-muted" dateTime={first.createdAt}>
              {timeFormat.format(new Date(first.createdAt))}
            </time>
          </div>
          {group.messages.map((message) => (
            <MessageRow
              key={message.id}
              message={message}
              authorName={view.name}
              handles={handles}
              onInspect={onInspect}
              onOpenFork={onOpenFork}
              context={context}
              highlighted={highlighted === message.seq}
              resendable={context?.resendableId === message.id}
              asker={context?.askerOf(message) ?? null}
            />
          ))}
        </div>
      </>
    );
  },
  (before, after) =>
    sameGroup(before.group, after.group) &&
    before.handles === after.handles &&
    before.onInspect === after.onInspect &&
    before.onOpenFork === after.onOpenFork &&
    before.context === after.context &&
    (before.highlighted ?? null) === (after.highlighted ?? null) &&
    before.askers === after.askers &&
    (before.resendableId ?? null) === (after.resendableId ?? null),
);

interface RowProps extends MessageActions {
  message: MessageDto;
  authorName: string;
  handles: MentionHandles;
  highlighted: boolean;
  /** Read by MessageChrome from the context; props here so a change renders this message again. */
  resendable: boolean;
  asker: string | null;
}

/** One message of a group, memoised: its markdown, highlighting and controls render again only when it changes. */
const MessageRow = memo(function MessageRow({ message, authorName, handles, onInspect, onOpenFork, context, highlighted }: RowProps) {
  useRenderCount(`message:${message.id}`);
  const toolMessage = isToolMessage(message);
  // A step whose calls ran without asking and came with no text: its results say it all.
  const silentStep = Boolean(message.metadata.toolStep) && !message.deleted && !stepHasContent(message);
  return (
    <div
      data-seq={message.seq}
      tabIndex={-1}
      title={message.metadata.model ? `${message.metadata.model} · ${message.metadata.provider ?? ""}` : undefined}
      className={`min-w-0 rounded outline-none ${message.metadata.error ? "text-danger" : "text-slate-800 dark:text-slate-200"} ${highlighted ? "bg-amber-100 ring-2 ring-amber-400 dark:bg-amber-900/40" : ""}`}
    >
      {message.metadata.copiedFrom && <span className="mr-1 rounded bg-slate-200 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-muted-strong dark:bg-slate-800">copied</span>}
      {silentStep ? null : context ? (
        <MessageChrome message={message} context={context} authorName={authorName}>
          <MessageBody message={message} handles={handles} onOpenFork={onOpenFork} viewer={context} />
        </MessageChrome>
      ) : (
        <MessageBody message={message} handles={handles} onOpenFork={onOpenFork} viewer={null} />
      )}
      <MessageAttachments attachments={message.attachments} />
      {message.metadata.sources && message.metadata.sources.length > 0 && !message.deleted && <ReplySources messageId={message.id} sources={message.metadata.sources} />}
      {message.metadata.panelId && <PanelOnQuestion panelId={message.metadata.panelId} />}
      {message.metadata.panel && <PanelResult panelId={message.metadata.panel.panelId} />}
      <span className="flex flex-wrap items-center gap-2">
        {message.metadata.source === "specialist" && message.metadata.forkId && (
          <span className="text-xs text-muted">
            Result of a forked context
            {onOpenFork && (
              <>
                {" · "}
                <button type="button" onClick={() => onOpenFork(message.metadata.forkId!)} className="rounded px-1 font-semibold text-link hover:underline">
                  Open fork
                </button>
              </>
            )}
          </span>
        )}
        {message.metadata.stopped && <span className="text-xs italic text-muted">(stopped)</span>}
        {message.author.kind === "agent" && !toolMessage && message.metadata.model && <ReplyDetails metadata={message.metadata} />}
        {message.author.kind === "agent" && !toolMessage && onInspect && message.metadata.dispatchId && (
          <button type="button" onClick={() => onInspect(message.metadata.dispatchId!)} className="rounded px-1 text-xs text-link hover:underline">
            Inspect context<span className="sr-only"> of this reply</span>
          </button>
        )}
      </span>
    </div>
  );
});

function MessageBody({ message, handles, onOpenFork, viewer }: { message: Group["messages"][number]; handles: MentionHandles; onOpenFork?: (forkId: string) => void; viewer: ApprovalViewer | null }) {
  if (message.role === "tool" && message.metadata.toolResult) return <ToolStep message={message} />;
  if (message.metadata.toolStep) {
    return (
      <>
        {message.content.trim() && <Markdown text={message.content} handles={handles} />}
        <StepApprovals message={message} viewer={viewer} />
      </>
    );
  }
  return message.metadata.handoff && message.metadata.isHandoffSummary ? <HandoffNotice message={message} handles={handles} onOpenFork={onOpenFork} /> : <ReplyText message={message} handles={handles} />;
}

/** A message's text; a reply's [n] markers link to its sources. */
function ReplyText({ message, handles }: { message: Group["messages"][number]; handles: MentionHandles }) {
  const { sources } = message.metadata;
  const citations = useMemo(() => (sources?.length ? { messageId: message.id, documents: sources.map((source) => source.document) } : undefined), [message.id, sources]);
  return <Markdown text={message.content} handles={handles} citations={citations} />;
}
