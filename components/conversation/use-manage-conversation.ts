"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ConversationChanges } from "@/lib/conversations/conversation-settings";
import type { ErrorPayload } from "@/lib/errors/app-error";
import type { ConversationUpdate } from "@/lib/realtime/events";
import { useApplyConversationUpdate } from "@/hooks/use-live-conversation";

type Action<T> = (input: unknown) => Promise<ActionResult<T>>;

/** The server actions behind a conversation's settings (lib/conversations: update, add, remove). */
export interface ManageActions {
  update: Action<ConversationUpdate>;
  addMember: Action<unknown>;
  removeMember: Action<unknown>;
}

const offline: { error: ErrorPayload } = { error: { code: "internal", message: "Could not reach Chorus. Try again." } };

/**
 * Runs a conversation's settings actions: one at a time, the refusal in words, a change shown
 * here at once (the socket tells the other participants), members reloaded after they change.
 */
export function useManageConversation(conversationId: string, actions: ManageActions) {
  const router = useRouter();
  const applyUpdate = useApplyConversationUpdate();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async <T>(call: () => Promise<ActionResult<T>>): Promise<{ data: T } | null> => {
    setBusy(true);
    setError(null);
    const result: ActionResult<T> = await call().catch(() => offline);
    setBusy(false);
    if ("error" in result) {
      setError(result.error.fields ? (Object.values(result.error.fields)[0] ?? result.error.message) : result.error.message);
      return null;
    }
    return result;
  };

  const membersChanged = (done: { data: unknown } | null) => {
    if (done) router.refresh();
    return done !== null;
  };

  return {
    error,
    busy,
    async update(changes: ConversationChanges): Promise<boolean> {
      const done = await run(() => actions.update({ conversationId, changes }));
      if (done) applyUpdate(done.data);
      return done !== null;
    },
    addPerson: async (userId: string) => membersChanged(await run(() => actions.addMember({ conversationId, member: { userId } }))),
    remove: async (memberId: string) => membersChanged(await run(() => actions.removeMember({ conversationId, memberId }))),
    async leave(userId: string): Promise<void> {
      if (!(await run(() => actions.removeMember({ conversationId, memberId: userId })))) return;
      router.push("/channels");
      router.refresh();
    },
  };
}

export type ConversationManager = ReturnType<typeof useManageConversation>;
