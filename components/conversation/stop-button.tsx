/** Stop on an agent's turn, streaming or still queued: shown to whoever asked (and admins) only. */
export function StopButton({ onStop }: { onStop: () => void }) {
  return (
    <button
      type="button"
      onClick={onStop}
      className="ml-auto rounded border border-slate-400 px-2 py-0.5 text-xs text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
    >
      Stop
    </button>
  );
}
