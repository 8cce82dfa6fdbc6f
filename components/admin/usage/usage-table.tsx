import type { UsageReport, UsageRow } from "@/lib/usage/read-usage";
import { costText, tokensText } from "./usage-format";

const groupHeaders = { day: "Day (UTC)", agent: "Agent", person: "Person who asked" } as const;

/** Columns a phone has no room for: input and output move under the total. */
const wideOnly = "hidden px-2 py-1.5 text-right tabular-nums sm:table-cell";

function Numbers({ row }: { row: Omit<UsageRow, "key" | "label"> }) {
  return (
    <>
      <td className={wideOnly}>{tokensText(row.inputTokens)}</td>
      <td className={wideOnly}>{tokensText(row.outputTokens)}</td>
      <td className="px-2 py-1.5 text-right tabular-nums">
        {tokensText(row.inputTokens + row.outputTokens)}
        <span className="block text-xs text-muted sm:hidden">
          {tokensText(row.inputTokens)} in · {tokensText(row.outputTokens)} out
        </span>
      </td>
      <td className="px-2 py-1.5 text-right tabular-nums">{costText(row.costUsd)}</td>
      <td className={wideOnly}>{tokensText(row.turns)}</td>
    </>
  );
}

/** The report as a table with its totals: the chart's text alternative. */
export function UsageTable({ report }: { report: UsageReport }) {
  const header = groupHeaders[report.groupBy];
  return (
    <div className="rounded-lg border border-slate-200 dark:border-slate-800">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">
          Tokens and cost per {report.groupBy}, {report.from} to {report.to}
        </caption>
        <thead className="text-xs uppercase text-muted">
          <tr>
            <th scope="col" className="px-2 py-2">{header}</th>
            <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">Input tokens</th>
            <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">Output tokens</th>
            <th scope="col" className="px-2 py-2 text-right">Total tokens</th>
            <th scope="col" className="px-2 py-2 text-right">Cost</th>
            <th scope="col" className="hidden px-2 py-2 text-right sm:table-cell">Turns</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-200 dark:divide-slate-800">
          {report.rows.map((row) => (
            <tr key={row.key || row.label}>
              <th scope="row" className="px-2 py-1.5 font-normal">{row.label}</th>
              <Numbers row={row} />
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-300 font-semibold dark:border-slate-700">
          <tr>
            <th scope="row" className="px-2 py-1.5">Total</th>
            <Numbers row={report.totals} />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
