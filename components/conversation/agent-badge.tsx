/** Marks every agent's name, so an agent is never mistaken for a person. */
export function AgentBadge({ offline }: { offline?: boolean }) {
  return (
    <>
      <span className="rounded bg-brand-100 px-1.5 py-0.5 text-[10px] font-semibold uppercase tracking-wide text-brand-700 dark:bg-brand-700/30 dark:text-brand-100">
        agent
      </span>
      {offline && (
        <span title="No OPENAI_API_KEY is configured: replies come from the built-in offline model." className="rounded bg-amber-100 px-1.5 py-0.5 text-[10px] font-semibold text-amber-800 dark:bg-amber-900/40 dark:text-amber-200">
          offline model
        </span>
      )}
    </>
  );
}
