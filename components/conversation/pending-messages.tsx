import type { PendingMessage } from "@/hooks/use-send-message";

export function PendingMessages({
  pending,
  onRetry,
  onDiscard,
}: {
  pending: PendingMessage[];
  onRetry: (clientId: string) => void;
  onDiscard: (clientId: string) => void;
}) {
  return (
    <>
      {pending.map((item) => (
        <li key={item.clientId} className="px-4 py-2 pl-16" aria-live="polite">
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
        </li>
      ))}
    </>
  );
}
