"use client";

import { useEffect, useRef } from "react";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessagePage } from "@/lib/conversations/list-messages";
import { flattenMessages } from "@/hooks/message-cache";
import { useConversationMessages } from "@/hooks/use-conversation-messages";
import { useSendMessage, type PostMessageAction } from "@/hooks/use-send-message";
import { Composer } from "./composer";
import { ConnectionBanner } from "./connection-banner";
import { groupMessages } from "./group-messages";
import { MessageGroup } from "./message-group";
import { PendingMessages } from "./pending-messages";

export function ConversationView({
  conversation,
  initialPage,
  postMessage,
}: {
  conversation: ConversationSummary;
  initialPage: MessagePage;
  postMessage: PostMessageAction;
}) {
  const { data, fetchNextPage, hasNextPage, isFetchingNextPage } = useConversationMessages(conversation.id, initialPage);
  const { pending, send, retry, discard } = useSendMessage(conversation.id, postMessage);
  const messages = flattenMessages(data);
  const bottomRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    bottomRef.current?.scrollIntoView({ block: "end" });
  }, [messages.length, pending.length]);

  return (
    <section className="flex h-full min-h-0 flex-col" aria-label={`Conversation ${conversation.title}`}>
      <header className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
        <h1 className="text-lg font-semibold text-slate-900 dark:text-slate-100"># {conversation.title}</h1>
      </header>
      <ConnectionBanner />
      <div className="min-h-0 flex-1 overflow-y-auto">
        {hasNextPage && (
          <div className="flex justify-center py-2">
            <button
              type="button"
              onClick={() => void fetchNextPage()}
              disabled={isFetchingNextPage}
              className="text-sm text-brand-600 hover:underline disabled:opacity-50"
            >
              {isFetchingNextPage ? "Loading…" : "Load older messages"}
            </button>
          </div>
        )}
        <ol aria-label="Messages" className="py-2">
          {groupMessages(messages).map((group) => (
            <MessageGroup key={group.key} group={group} />
          ))}
          <PendingMessages pending={pending} onRetry={retry} onDiscard={discard} />
        </ol>
        <div ref={bottomRef} />
      </div>
      <Composer conversationTitle={conversation.title} onSend={send} />
    </section>
  );
}
