import type { ContextSnapshot } from "@/lib/context/types";
import { sectionStyle, toolsStyle } from "./section-style";
import { offeredToolTokens } from "./tool-list";

/** Used vs budget, stacked by section (the tools' definitions after the system prompt), with a legend that carries the numbers in words. */
export function BudgetBar({ snapshot }: { snapshot: ContextSnapshot }) {
  const { maxTokens, usedTokens } = snapshot.budget;
  const tools = offeredToolTokens(snapshot.tools);
  const shown = snapshot.sections
    .filter((section) => section.tokens > 0)
    .map((section): { key: string; label: string; swatch: string; tokens: number } => ({ key: section.kind, label: sectionStyle[section.kind].label, swatch: sectionStyle[section.kind].swatch, tokens: section.tokens }));
  if (tools > 0) shown.splice(shown[0]?.key === "system" ? 1 : 0, 0, { key: "tools", label: `${toolsStyle.label} (in no section)`, swatch: toolsStyle.swatch, tokens: tools });
  return (
    <div>
      <p className="mb-1 text-sm">
        <span className="font-semibold">{usedTokens.toLocaleString()}</span> of {maxTokens.toLocaleString()} tokens used
        <span className="text-muted"> ({Math.round((usedTokens / maxTokens) * 100)}%, 3 of them prime the reply)</span>
      </p>
      <div className="flex h-4 w-full overflow-hidden rounded bg-slate-200 dark:bg-slate-800" aria-hidden="true">
        {shown.map((part) => (
          <div key={part.key} className={part.swatch} style={{ width: `${(part.tokens / maxTokens) * 100}%` }} title={`${part.label}: ${part.tokens} tokens`} />
        ))}
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs" aria-label="Tokens by section">
        {shown.map((part) => (
          <li key={part.key} className="flex items-center gap-1">
            <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 rounded-sm ${part.swatch}`} />
            {part.label}: {part.tokens.toLocaleString()}
          </li>
        ))}
      </ul>
    </div>
  );
}
