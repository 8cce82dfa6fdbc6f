import type { LiveReply } from "@/hooks/use-live-replies";
import { Avatar } from "@/components/ui/avatar";
import { AgentBadge } from "./agent-badge";
import { Markdown } from "./markdown";

/** Replies still streaming, each with its agent's attribution and a Stop button. */
export function LiveReplies({ replies, onStop }: { replies: LiveReply[]; onStop: (dispatchId: string) => void }) {
  return (
    <>
      {replies.map((reply) => (
        <li key={reply.dispatchId} className="flex gap-3 px-4 py-2" aria-label={`${reply.agent.displayName} is replying`} aria-busy="true">
          <Avatar name={reply.agent.displayName} colour={reply.agent.color} />
          <div className="min-w-0 flex-1">
            <div className="flex items-baseline gap-2">
              <span className="font-semibold">{reply.agent.displayName}</span>
              <AgentBadge />
              <button type="button" onClick={() => onStop(reply.dispatchId)} className="ml-auto rounded border border-slate-300 px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-100 dark:border-slate-700 dark:text-slate-300 dark:hover:bg-slate-800">
                Stop
              </button>
            </div>
            <div className="text-slate-800 dark:text-slate-200">
              <Markdown text={reply.text} />
              <span aria-hidden="true" className="ml-0.5 inline-block h-4 w-1.5 animate-pulse bg-slate-400 align-middle" />
            </div>
          </div>
        </li>
      ))}
    </>
  );
}
