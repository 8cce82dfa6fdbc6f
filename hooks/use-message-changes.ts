"use client";

import { useCallback, useMemo, useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { EditedMessage } from "@/lib/messages/edit-message";
import type { MessageVersionView } from "@/lib/messages/list-versions";
import type { ReactionUpdate } from "@/lib/messages/react-to-message";

type Action<I, T> = (input: I) => Promise<ActionResult<T>>;

/** The server actions behind a message's menu, handed down by the conversation page. */
export interface MessageChangeActions {
  edit: Action<{ messageId: string; content: string; resend: boolean }, EditedMessage>;
  remove: Action<{ messageId: string }, MessageDto>;
  regenerate: Action<{ messageId: string }, unknown>;
  showVersion: Action<{ messageId: string; version: number }, MessageDto[]>;
  listVersions: Action<{ messageId: string }, MessageVersionView[]>;
  react: Action<{ messageId: string; emoji: string; reacted: boolean }, ReactionUpdate>;
}

/** What the person is told after a change: a refusal, or what an edit did not do. */
export interface ChangeNotice {
  text: string;
  tone: "info" | "error";
}

const unreachable = { error: { code: "internal", message: "Could not reach Chorus. Check your connection and try again." } } as const;

/**
 * Edits, deletions, versions and reactions from this tab. Each result goes into the cache at once
 * (the broadcast brings the same change to the other tabs, and is ignored here as not newer).
 */
export function useMessageChanges(actions: MessageChangeActions, apply: { messages: (messages: MessageDto[]) => void }) {
  const [notice, setNotice] = useState<ChangeNotice | null>(null);

  const run = useCallback(async <T,>(call: () => Promise<ActionResult<T>>, onData: (data: T) => void): Promise<boolean> => {
    const result = await call().catch(() => unreachable);
    if ("error" in result) {
      setNotice({ text: result.error.message, tone: "error" });
      return false;
    }
    setNotice(null);
    onData(result.data);
    return true;
  }, []);

  return useMemo(
    () => ({
      notice,
      say: (text: string) => setNotice({ text, tone: "info" }),
      edit: (messageId: string, content: string, resend: boolean) =>
        run(
          () => actions.edit({ messageId, content, resend }),
          ({ message, unaskedHandles }) => {
            apply.messages([message]);
            if (unaskedHandles.length > 0) {
              const named = unaskedHandles.map((handle) => `@${handle}`).join(", ");
              setNotice({ text: `Editing doesn't ask ${named}. Send a new message (or regenerate a reply) to ask.`, tone: "info" });
            }
          },
        ),
      remove: (messageId: string) => run(() => actions.remove({ messageId }), (message) => apply.messages([message])),
      regenerate: (messageId: string) => run(() => actions.regenerate({ messageId }), () => undefined),
      showVersion: (messageId: string, version: number) => run(() => actions.showVersion({ messageId, version }), apply.messages),
      react: (messageId: string, emoji: string, reacted: boolean) => run(() => actions.react({ messageId, emoji, reacted }), (update) => apply.messages([update.message])),
      listVersions: async (messageId: string): Promise<MessageVersionView[] | null> => {
        let versions: MessageVersionView[] | null = null;
        await run(() => actions.listVersions({ messageId }), (data) => (versions = data));
        return versions;
      },
    }),
    [actions, apply, notice, run],
  );
}

export type MessageChanges = ReturnType<typeof useMessageChanges>;
