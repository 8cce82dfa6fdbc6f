import type { CallRecord } from "@/lib/context/types";

/** The summary's words: "3 model calls · up to 6,100 of 8,000 tokens", "… · call 3 not made: budget". */
export function modelCallsSummary(calls: CallRecord[], maxTokens: number): string {
  const made = calls.filter((call) => !call.error);
  const count = `${calls.length} model ${calls.length === 1 ? "call" : "calls"}`;
  const most = made.length > 0 ? ` · ${made.length > 1 ? "up to " : ""}${Math.max(...made.map((call) => call.usedTokens)).toLocaleString()} of ${maxTokens.toLocaleString()} tokens` : "";
  const refused = calls.flatMap((call, index) => (call.error ? [`call ${index + 1} not made: ${call.error}`] : []));
  return [count + most, ...refused].join(" · ");
}

/**
 * Every model call of the turn (the first sends the assembled context, each later one adds the
 * steps so far), each against the budget; a call that could not be made says "budget". Nothing
 * for a snapshot older than tool steps; a line for a turn that made no call.
 */
export function ModelCalls({ calls, maxTokens }: { calls?: CallRecord[]; maxTokens: number }) {
  if (!calls) return null;
  if (calls.length === 0) return <p className="mt-2 text-xs text-muted">No model call was made.</p>;
  return (
    <details className="mt-2 text-xs" open={calls.some((call) => call.error)}>
      <summary className="cursor-pointer [overflow-wrap:anywhere]">{modelCallsSummary(calls, maxTokens)}</summary>
      <ol className="mt-1 space-y-1" aria-label="Model calls">
        {calls.map((call, index) => (
          <li key={index} className="grid grid-cols-[3.5rem_1fr] items-center gap-x-2">
            <span>Call {index + 1}</span>
            {call.error ? (
              <span className="font-semibold text-danger">not made: {call.error}</span>
            ) : (
              <>
                <span aria-hidden="true" className="relative block h-2 rounded bg-slate-200 dark:bg-slate-800">
                  <span className="absolute inset-y-0 left-0 rounded bg-brand-500" style={{ width: `${Math.min(100, (call.usedTokens / maxTokens) * 100)}%` }} />
                </span>
                <span className="col-start-2 text-muted">
                  {call.usedTokens.toLocaleString()} of {maxTokens.toLocaleString()} tokens
                </span>
              </>
            )}
          </li>
        ))}
      </ol>
    </details>
  );
}
