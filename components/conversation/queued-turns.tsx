import { memo, type LiHTMLAttributes } from "react";
import { queuedTurnText, type QueuedTurn } from "@/lib/dispatch/queued-turn";
import { Avatar } from "@/components/ui/avatar";
import { durationText } from "@/components/ui/duration-text";
import { StopButton } from "./stop-button";

/** A waiting turn's list item, named by what it waits for ("Toby is queued (2 ahead)"). */
export function queuedTurnRowProps(turn: QueuedTurn): LiHTMLAttributes<HTMLLIElement> {
  return { className: "flex items-center gap-3 px-3 py-1.5 sm:px-4", "aria-label": queuedTurnText(turn) };
}

/**
 * An agent turn that has not started, where its reply will stream: who waits and why, and
 * Stop for whoever asked (and admins), which ends the turn before it calls the model.
 */
export const QueuedTurnContent = memo(function QueuedTurnContent({ turn, onStop, canStop }: { turn: QueuedTurn; onStop: (dispatchId: string) => void; canStop: boolean }) {
  return (
    <>
      <Avatar name={turn.agent.displayName} colour={turn.agent.color} />
      <p className="min-w-0 flex-1 text-sm italic text-muted">
        {queuedTurnText(turn)}
        {turn.state === "waiting_provider" && turn.retryInMs !== null && <> · tries again in {durationText(turn.retryInMs)}</>}
      </p>
      {canStop && <StopButton onStop={() => onStop(turn.dispatchId)} />}
    </>
  );
});

/** Waiting turns as list items, outside a virtualised list. */
export function QueuedTurns({ turns, onStop, canStop }: { turns: QueuedTurn[]; onStop: (dispatchId: string) => void; canStop: (replyToMessageId: string) => boolean }) {
  return turns.map((turn) => (
    <li key={turn.dispatchId} {...queuedTurnRowProps(turn)}>
      <QueuedTurnContent turn={turn} onStop={onStop} canStop={canStop(turn.replyToMessageId)} />
    </li>
  ));
}
