"use client";

import { useEffect, useRef, useState, type ChangeEvent, type FormEvent } from "react";
import { allowedActions, type Manager } from "@/lib/conversations/conversation-permissions";
import { CHAT_TITLE_MAX, TOPIC_MAX, type ConversationChanges } from "@/lib/conversations/conversation-settings";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { ConversationMembers, type AddablePerson } from "./conversation-members";
import { useManageConversation, type ConversationManager, type ManageActions } from "./use-manage-conversation";

const field = "mt-1 block w-full rounded-md border border-slate-400 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-950 dark:text-slate-100";
const secondary = "rounded-md border border-slate-400 px-3 py-1.5 text-sm font-semibold text-muted-strong hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800";

/**
 * The header's "Settings": rename, topic, members (remove, add), archive or unarchive, leave;
 * each offered only to who may (the server decides again). A modal dialog: focus stays inside,
 * Escape closes it and focus returns to the button.
 */
export function ConversationSettings({
  conversation,
  participants,
  addablePeople,
  actor,
  actions,
}: {
  conversation: ConversationSummary;
  participants: ParticipantDto[];
  addablePeople: AddablePerson[];
  actor: Manager;
  actions: ManageActions;
}) {
  const [open, setOpen] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const manager = useManageConversation(conversation.id, actions);
  const allowed = allowedActions(conversation, actor);

  useEffect(() => {
    if (!open) return;
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, [open]);

  if (allowed.size === 0) return null;
  const name = conversation.type === "group" ? `#${conversation.title}` : conversation.title;
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
        Settings
      </button>
      {open && (
        <dialog
          ref={dialog}
          onClose={() => setOpen(false)}
          aria-labelledby="conversation-settings-title"
          className="m-0 h-full max-h-none w-full max-w-none bg-white p-0 text-slate-900 backdrop:bg-black/50 sm:m-auto sm:h-auto sm:max-h-[85vh] sm:max-w-lg sm:rounded-xl dark:bg-slate-900 dark:text-slate-100"
        >
          <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
            <h2 id="conversation-settings-title" className="min-w-0 flex-1 truncate text-lg font-semibold">
              Settings of {name}
            </h2>
            <button type="button" onClick={() => dialog.current?.close()} className="rounded-md px-2 py-1 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800">
              Close
            </button>
          </div>
          <div className="space-y-5 overflow-y-auto p-4">
            {conversation.archived && <p className="text-sm text-muted">This conversation is archived: unarchive it to rename it or change its members.</p>}
            {!conversation.archived && (allowed.has("rename") || allowed.has("topic")) && (
              <DetailsForm conversation={conversation} canRename={allowed.has("rename")} canSetTopic={allowed.has("topic")} manager={manager} />
            )}
            {conversation.type === "group" && (
              <ConversationMembers
                participants={participants}
                addablePeople={addablePeople}
                userId={actor.userId}
                canRemove={allowed.has("remove_member") && !conversation.archived}
                canAdd={allowed.has("add_member") && !conversation.archived}
                manager={manager}
              />
            )}
            <div className="flex flex-wrap gap-2">
              {allowed.has("archive") && (
                <button type="button" disabled={manager.busy} onClick={() => void manager.update({ archived: !conversation.archived })} className={secondary}>
                  {conversation.archived ? "Unarchive" : "Archive"}
                </button>
              )}
              {allowed.has("leave") && (
                <button type="button" disabled={manager.busy} onClick={() => void manager.leave(actor.userId)} className={`${secondary} text-danger`}>
                  Leave {name}
                </button>
              )}
            </div>
            {manager.error && (
              <p role="alert" className="text-sm text-danger">
                {manager.error}
              </p>
            )}
          </div>
        </dialog>
      )}
    </>
  );
}

/** A channel's name and topic, or an agent chat's name, saved together. */
function DetailsForm({ conversation, canRename, canSetTopic, manager }: { conversation: ConversationSummary; canRename: boolean; canSetTopic: boolean; manager: ConversationManager }) {
  const [name, setName] = useState(conversation.title);
  const [topic, setTopic] = useState(conversation.topic ?? "");
  const [saved, setSaved] = useState(false);
  const edited = (set: (value: string) => void) => (event: ChangeEvent<HTMLInputElement>) => {
    set(event.target.value);
    setSaved(false);
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const changes: ConversationChanges = {
      ...(canRename && name !== conversation.title && { name }),
      ...(canSetTopic && topic !== (conversation.topic ?? "") && { topic }),
    };
    setSaved(Object.keys(changes).length === 0 || (await manager.update(changes)));
  };
  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-2">
      {canRename && (
        <label className="block text-sm font-medium">
          Name
          <input value={name} maxLength={CHAT_TITLE_MAX} onChange={edited(setName)} className={field} />
        </label>
      )}
      {canSetTopic && (
        <label className="block text-sm font-medium">
          Topic
          <input value={topic} maxLength={TOPIC_MAX} placeholder="What this channel is for" onChange={edited(setTopic)} className={field} />
        </label>
      )}
      <div className="flex items-center gap-3">
        <button type="submit" disabled={manager.busy} className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700 disabled:opacity-50">
          Save
        </button>
        <p role="status" className="text-sm text-muted">
          {saved && "Saved."}
        </p>
      </div>
    </form>
  );
}
