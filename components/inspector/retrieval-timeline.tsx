import type { ContextSnapshot } from "@/lib/context/types";

const searches = [
  ["episodic", "Episodic memory"],
  ["semantic", "Knowledge"],
  ["procedural", "Procedures"],
] as const;

/** The three memory searches on one time axis from the turn's start: overlapping bars ran in parallel. */
export function RetrievalTimeline({ retrieval }: { retrieval: ContextSnapshot["retrieval"] }) {
  const end = Math.max(0.001, ...searches.map(([key]) => retrieval[key].startedAt + retrieval[key].ms));
  return (
    <ul className="space-y-1 text-xs" aria-label="Memory retrieval timeline">
      {searches.map(([key, label]) => {
        const { startedAt, ms } = retrieval[key];
        return (
          <li key={key} className="grid grid-cols-[7rem_1fr] items-center gap-2">
            <span>{label}</span>
            <span className="relative block h-3 rounded bg-slate-100 dark:bg-slate-800">
              <span
                aria-hidden="true"
                className="absolute inset-y-0 rounded bg-brand-500"
                style={{ left: `${(startedAt / end) * 100}%`, width: `${Math.max(1, (ms / end) * 100)}%` }}
              />
              <span className="sr-only">
                started at {startedAt} ms, took {ms} ms
              </span>
            </span>
            <span className="col-start-2 text-muted">
              {startedAt.toFixed(1)} ms → {(startedAt + ms).toFixed(1)} ms
            </span>
          </li>
        );
      })}
    </ul>
  );
}
