import { queuedTurnText, type QueuedTurn } from "@/lib/dispatch/queued-turn";
import { Avatar } from "@/components/ui/avatar";
import { durationText } from "@/components/ui/duration-text";
import { StopButton } from "./stop-button";

/**
 * Agent turns that have not started, where their replies will stream: who waits and why, and
 * Stop for whoever asked (and admins), which ends the turn before it calls the model.
 */
export function QueuedTurns({ turns, onStop, canStop }: { turns: QueuedTurn[]; onStop: (dispatchId: string) => void; canStop: (replyToMessageId: string) => boolean }) {
  return (
    <>
      {turns.map((turn) => {
        const text = queuedTurnText(turn);
        return (
          <li key={turn.dispatchId} className="flex items-center gap-3 px-3 py-1.5 sm:px-4" aria-label={text}>
            <Avatar name={turn.agent.displayName} colour={turn.agent.color} />
            <p className="min-w-0 flex-1 text-sm italic text-muted">
              {text}
              {turn.state === "waiting_provider" && turn.retryInMs !== null && <> · tries again in {durationText(turn.retryInMs)}</>}
            </p>
            {canStop(turn.replyToMessageId) && <StopButton onStop={() => onStop(turn.dispatchId)} />}
          </li>
        );
      })}
    </>
  );
}
