import type { CapState } from "@/lib/usage/monthly-cap";
import { capWarningText } from "@/lib/usage/monthly-cap";
import { costText, priceText, tokensText } from "./usage-format";

export interface PricedAgent {
  id: string;
  displayName: string;
  monthlyTokenCap: number | null;
  inputUsdPerMillion: number | null;
  outputUsdPerMillion: number | null;
}

/** Each agent's cap with what it has used this month, a warning from 80 %, and the prices costs are computed at. */
export function UsageCaps({ agents, caps }: { agents: PricedAgent[]; caps: Map<string, CapState> }) {
  if (agents.length === 0) return null;
  return (
    <section aria-labelledby="usage-agents" className="space-y-2">
      <h2 id="usage-agents" className="text-lg font-semibold">
        Caps and prices
      </h2>
      <p className="text-sm text-muted">Costs use each agent&apos;s prices as set in its settings now; an agent without prices counts {costText(0)}. Caps count input and output tokens per calendar month (UTC).</p>
      <ul aria-label="Agents' caps and prices" className="divide-y divide-slate-200 rounded-lg border border-slate-200 dark:divide-slate-800 dark:border-slate-800">
        {agents.map((agent) => {
          const cap = caps.get(agent.id);
          return (
            <li key={agent.id} aria-label={agent.displayName} className="p-3 text-sm">
              <span className="font-semibold">{agent.displayName}</span>
              <span className="block text-xs text-muted">
                Input {priceText(agent.inputUsdPerMillion)} · output {priceText(agent.outputUsdPerMillion)}
              </span>
              <span className="block text-xs">
                {cap ? `${tokensText(cap.used)} of ${tokensText(cap.cap)} tokens used this month (${cap.percent}%)` : "No monthly cap"}
              </span>
              {cap?.warn && <span className="block text-xs font-semibold text-danger">{capWarningText(cap)}</span>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
