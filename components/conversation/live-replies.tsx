import type { LiveReply } from "@/hooks/use-live-replies";
import { Avatar } from "@/components/ui/avatar";
import { AgentBadge } from "./agent-badge";
import { Markdown } from "./markdown";
import type { MentionHandles } from "./remark-mentions";
import { StopButton } from "./stop-button";

/**
 * Replies still streaming, each with its agent's attribution; Stop for whoever asked (and admins):
 * the server refuses anyone else.
 */
export function LiveReplies({ replies, onStop, canStop, handles }: { replies: LiveReply[]; onStop: (dispatchId: string) => void; canStop: (replyToMessageId: string) => boolean; handles: MentionHandles }) {
  return (
    <>
      {replies.map((reply) => (
        <li key={reply.dispatchId} className="flex gap-3 px-3 py-2 sm:px-4" aria-label={`${reply.agent.displayName} is replying`} aria-busy="true">
          <Avatar name={reply.agent.displayName} colour={reply.agent.color} />
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-baseline gap-2">
              <span className="font-semibold">{reply.agent.displayName}</span>
              <AgentBadge />
              {canStop(reply.replyToMessageId) && <StopButton onStop={() => onStop(reply.dispatchId)} />}
            </div>
            <div className="text-slate-800 dark:text-slate-200">
              <Markdown text={reply.text} handles={handles} />
              <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-slate-400 align-middle" />
            </div>
          </div>
        </li>
      ))}
    </>
  );
}
