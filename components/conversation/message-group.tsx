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
import { ReplyDetails } from "./reply-details";
import { ToolStep } from "./tool-step";

const timeFormat = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit" });

function authorView(author: Group["author"]) {
  if (author.kind === "user") return { name: author.name, colour: colourFor(author.id), agent: false };
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

export function MessageGroup({ group, handles, onInspect, onOpenFork, context, highlighted }: { group: Group; handles: MentionHandles; highlighted?: number | null } & MessageActions) {
  const first = group.messages[0]!;
  const view = authorView(group.author);
  if (group.author.kind === "system") {
    return (
      <li className="px-4 py-2 text-center text-sm text-muted" data-seq={first.seq}>
        {group.messages.map((message) => (
          <p key={message.id} className="whitespace-pre-wrap">
            {message.content}
          </p>
        ))}
      </li>
    );
  }
  return (
    <li className={`${messageRow} px-3 py-2 hover:bg-slate-50 sm:px-4 dark:hover:bg-slate-900/60`} aria-label={`Messages from ${view.name}`}>
      <Avatar name={view.name} colour={view.colour} />
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2">
          <span className="font-semibold text-slate-900 dark:text-slate-100">{view.name}</span>
          {view.agent && <AgentBadge offline={first.metadata.provider === "offline"} />}
          <time className="text-xs text-muted" dateTime={first.createdAt}>
            {timeFormat.format(new Date(first.createdAt))}
          </time>
        </div>
        {group.messages.map((message) => {
          const toolMessage = isToolMessage(message);
          // A step whose calls ran without asking and came with no text: its results say it all.
          const silentStep = Boolean(message.metadata.toolStep) && !message.deleted && !stepHasContent(message);
          return (
            <div
              key={message.id}
              data-seq={message.seq}
              tabIndex={-1}
              title={message.metadata.model ? `${message.metadata.model} · ${message.metadata.provider ?? ""}` : undefined}
              className={`min-w-0 rounded outline-none ${message.metadata.error ? "text-danger" : "text-slate-800 dark:text-slate-200"} ${highlighted === message.seq ? "bg-amber-100 ring-2 ring-amber-400 dark:bg-amber-900/40" : ""}`}
            >
              {message.metadata.copiedFrom && <span className="mr-1 rounded bg-slate-200 px-1.5 py-0.5 text-[10px] font-semibold uppercase text-muted-strong dark:bg-slate-800">copied</span>}
              {silentStep ? null : context ? (
                <MessageChrome message={message} context={context} authorName={view.name}>
                  <MessageBody message={message} handles={handles} onOpenFork={onOpenFork} viewer={context} />
                </MessageChrome>
              ) : (
                <MessageBody message={message} handles={handles} onOpenFork={onOpenFork} viewer={null} />
              )}
              <MessageAttachments attachments={message.attachments} />
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
        })}
      </div>
    </li>
  );
}

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
  return message.metadata.handoff && message.metadata.isHandoffSummary ? <HandoffNotice message={message} handles={handles} onOpenFork={onOpenFork} /> : <Markdown text={message.content} handles={handles} />;
}
