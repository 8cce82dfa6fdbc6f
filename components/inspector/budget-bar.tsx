import type { ContextSnapshot } from "@/lib/context/types";
import { sectionStyle } from "./section-style";

/** Used vs budget, stacked by section, with a legend that carries the numbers in words. */
export function BudgetBar({ snapshot }: { snapshot: ContextSnapshot }) {
  const { maxTokens, usedTokens } = snapshot.budget;
  const shown = snapshot.sections.filter((section) => section.tokens > 0);
  return (
    <div>
      <p className="mb-1 text-sm">
        <span className="font-semibold">{usedTokens.toLocaleString()}</span> of {maxTokens.toLocaleString()} tokens used
        <span className="text-muted"> ({Math.round((usedTokens / maxTokens) * 100)}%, 3 of them prime the reply)</span>
      </p>
      <div className="flex h-4 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800" aria-hidden="true">
        {shown.map((section) => (
          <div key={section.kind} className={sectionStyle[section.kind].swatch} style={{ width: `${(section.tokens / maxTokens) * 100}%` }} title={`${sectionStyle[section.kind].label}: ${section.tokens} tokens`} />
        ))}
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Tokens by section">
        {shown.map((section) => (
          <li key={section.kind} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-sm ${sectionStyle[section.kind].swatch}`} />
            {sectionStyle[section.kind].label}: {section.tokens.toLocaleString()}
          </li>
        ))}
      </ul>
    </div>
  );
}
