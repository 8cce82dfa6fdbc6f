import { memo, type LiHTMLAttributes } from "react";
import type { PendingMessage } from "@/hooks/use-send-message";

/** A message being sent (or that failed to): announced politely as its state changes. */
export function pendingRowProps(): LiHTMLAttributes<HTMLLIElement> {
  return { className: "px-4 py-2 pl-16", "aria-live": "polite" };
}

/** A message being sent, with Retry and Discard when it could not be. */
export const PendingMessageContent = memo(function PendingMessageContent({
  item,
  onRetry,
  onDiscard,
}: {
  item: PendingMessage;
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
}) {
  return (
    <>
      <p className="whitespace-pre-wrap break-words text-muted">{item.content}</p>
      {item.status === "sending" ? (
        <p className="text-xs text-muted">Sending…</p>
      ) : (
        <p className="flex items-center gap-3 text-xs text-danger" role="alert">
          {item.error ?? "Not sent."}
          <button type="button" className="font-semibold underline" onClick={() => onRetry(item.clientId)}>
            Retry
          </button>
          <button type="button" className="underline" onClick={() => onDiscard(item.clientId)}>
            Discard
          </button>
        </p>
      )}
    </>
  );
});
