"use client";

import { useState } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageChanges } from "@/hooks/use-message-changes";
import { EmojiPicker } from "./emoji-picker";
import { MessageEditor } from "./message-editor";
import { MessageMenu, type MessageMenuItem } from "./message-menu";
import { VersionHistory, VersionSwitcher } from "./message-versions";
import { ReactionBar } from "./reaction-bar";
import { ReplyQuote } from "./reply-quote";

/** What a message's actions need to know of the conversation and the person. */
export interface MessageContext {
  userId: string;
  isAdmin: boolean;
  changes: MessageChanges;
  /** Who asked each message's question: the asker (or an admin) may regenerate and switch a reply. */
  askerOf: (message: MessageDto) => string | null;
  /** The person's latest message with agent replies: it may be edited and sent again. */
  resendableId: string | null;
  onReply: (message: MessageDto) => void;
  onCopyLink: (message: MessageDto) => void;
  /** Archived: nothing changes, nothing is offered. */
  readOnly: boolean;
}

export function messageLink(message: Pick<MessageDto, "conversationId" | "seq">): string {
  return `/c/${message.conversationId}?at=${message.seq}`;
}

function regenerable(message: MessageDto): boolean {
  const { metadata } = message;
  return message.author.kind === "agent" && Boolean(metadata.dispatchId) && !metadata.panel && !metadata.handoff && metadata.source !== "specialist";
}

/** A tool step (the calls an agent made) or a tool's result: part of a turn, not something to answer or change. */
export function isToolMessage(message: MessageDto): boolean {
  return message.role === "tool" || message.metadata.isToolResult || Boolean(message.metadata.toolStep);
}

/** A deleted message keeps its place: who deleted it, nothing of what it said. */
export function Tombstone({ message }: { message: MessageDto }) {
  return <p className="text-sm italic text-muted">{message.deleted?.byAdmin ? "Message deleted by an admin" : "Message deleted"}</p>;
}

/**
 * One message's own controls around its body: the reply quote, editing in place, the versions,
 * reactions and the "⋯" menu (react, reply, copy link, edit, regenerate, history, delete; only
 * copy link on tool steps and results).
 */
export function MessageChrome({ message, context, authorName, children }: { message: MessageDto; context: MessageContext; authorName: string; children: React.ReactNode }) {
  const [editing, setEditing] = useState(false);
  const [picking, setPicking] = useState(false);
  const [history, setHistory] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const { changes, userId } = context;
  if (message.deleted) return <Tombstone message={message} />;

  const mine = message.author.kind === "user" && message.author.id === userId;
  const asker = context.askerOf(message);
  const toolMessage = isToolMessage(message);
  const canSwitch = !context.readOnly && !toolMessage && (mine || (message.author.kind === "agent" && (asker === userId || context.isAdmin)));
  const items: MessageMenuItem[] = context.readOnly || toolMessage
    ? [{ label: "Copy link", run: () => context.onCopyLink(message) }]
    : [
        { label: "Add reaction", run: () => setPicking(true) },
        { label: "Reply", run: () => context.onReply(message) },
        { label: "Copy link", run: () => context.onCopyLink(message) },
        ...(mine && message.role === "user" ? [{ label: "Edit", run: () => setEditing(true) }] : []),
        ...(regenerable(message) && (asker === userId || context.isAdmin) ? [{ label: "Regenerate", run: () => void changes.regenerate(message.id) }] : []),
        ...(message.versionCount > 1 || message.editedAt ? [{ label: "Version history", run: () => setHistory(true) }] : []),
        ...(mine || context.isAdmin ? [{ label: "Delete", run: () => setConfirmingDelete(true), danger: true }] : []),
      ];

  return (
    <div className="group/message relative pr-8">
      {message.replyTo && <ReplyQuote quote={message.replyTo} conversationId={message.conversationId} />}
      {editing ? <MessageEditor initial={message.content} canResend={context.resendableId === message.id} onSave={(content, resend) => changes.edit(message.id, content, resend)} onCancel={() => setEditing(false)} /> : children}
      <span className="flex flex-wrap items-center gap-2">
        {message.editedAt && (
          <button type="button" onClick={() => setHistory((open) => !open)} className="rounded px-0.5 text-xs text-muted hover:underline" aria-expanded={history}>
            (edited)
          </button>
        )}
        <VersionSwitcher message={message} changes={changes} canSwitch={canSwitch} />
      </span>
      {message.reactions.length > 0 && <ReactionBar reactions={message.reactions} currentUserId={userId} disabled={context.readOnly} onToggle={(emoji, reacted) => void changes.react(message.id, emoji, reacted)} />}
      {picking && (
        <div className="absolute right-0 top-6 z-20">
          <EmojiPicker
            label={`React to ${authorName}'s message`}
            onPick={(emoji) => {
              setPicking(false);
              void changes.react(message.id, emoji, true);
            }}
            onClose={() => setPicking(false)}
          />
        </div>
      )}
      {history && <VersionHistory message={message} changes={changes} canSwitch={canSwitch} onClose={() => setHistory(false)} />}
      {confirmingDelete && (
        <div role="group" aria-label="Confirm delete" className="mt-1 flex flex-wrap items-center gap-2 text-sm">
          <span className="text-danger">Delete this message for everyone?</span>
          <button type="button" autoFocus onClick={() => void changes.remove(message.id).then(() => setConfirmingDelete(false))} className="rounded-md bg-red-700 px-2 py-0.5 font-semibold text-white hover:bg-red-800">
            Delete
          </button>
          <button type="button" onClick={() => setConfirmingDelete(false)} className="rounded-md px-2 py-0.5 text-muted-strong hover:bg-slate-100 dark:hover:bg-slate-800">
            Cancel
          </button>
        </div>
      )}
      <div className="absolute -top-2 right-0 sm:opacity-0 sm:focus-within:opacity-100 sm:group-hover/message:opacity-100">
        <MessageMenu items={items} label={`Actions for ${authorName}'s message`} />
      </div>
    </div>
  );
}
