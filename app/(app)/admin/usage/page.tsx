import { forbidden } from "next/navigation";
import { AdminSubpage } from "@/components/admin/admin-subpage";
import { UsageCaps } from "@/components/admin/usage/usage-caps";
import { UsageChart } from "@/components/admin/usage/usage-chart";
import { UsageFilterForm } from "@/components/admin/usage/usage-filter-form";
import { tokensText, costText } from "@/components/admin/usage/usage-format";
import { UsageTable } from "@/components/admin/usage/usage-table";
import { getRuntime } from "@/lib/runtime/runtime";
import { requireCurrentUser } from "@/lib/session/current-user";
import { projectMonthlyCaps } from "@/lib/usage/monthly-cap";
import { readUsage, readUsageChoices } from "@/lib/usage/read-usage";
import { readUsageFilters, usageQuery } from "@/lib/usage/usage-filters";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function UsagePage({ searchParams }: { searchParams: SearchParams }) {
  const user = await requireCurrentUser();
  if (user.role !== "admin") forbidden();
  const { db } = await getRuntime();
  const query = new URLSearchParams(Object.entries(await searchParams).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])));
  const { filters, errors } = readUsageFilters(query);
  const [report, choices] = await Promise.all([readUsage(db.prisma, { actor: user, filters }), readUsageChoices(db.prisma, { actor: user })]);
  const caps = await projectMonthlyCaps(db.prisma, choices.projectId);
  const per = { day: "day", agent: "agent", person: "person who asked" }[report.groupBy];
  const total = report.totals.inputTokens + report.totals.outputTokens;
  return (
    <AdminSubpage
      crumb="Usage"
      title="Usage"
      intro="Tokens the agents spent answering, as their providers reported them, and what they cost at each agent's prices. Days are UTC."
    >
      <UsageFilterForm filters={filters} range={report} errors={errors} agents={choices.agents} people={choices.people} />
      <section aria-labelledby="usage-results" className="space-y-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h2 id="usage-results" className="text-lg font-semibold">
            Per {per}, {report.from} to {report.to}
          </h2>
          <a href={`/api/admin/usage.csv?${usageQuery({ ...filters, from: report.from, to: report.to })}`} download className="text-sm text-link underline">
            Download CSV
          </a>
        </div>
        <p className="text-sm">
          {tokensText(total)} tokens ({tokensText(report.totals.inputTokens)} input, {tokensText(report.totals.outputTokens)} output) in {tokensText(report.totals.turns)} {report.totals.turns === 1 ? "turn" : "turns"}, costing {costText(report.totals.costUsd)}.
        </p>
        {report.rows.length === 0 ? (
          <p className="text-sm text-muted">No usage in this range. Agents&apos; answers are counted from the moment they are written.</p>
        ) : (
          <>
            <UsageChart rows={report.rows} label={`Bar chart of input and output tokens per ${per}, ${report.from} to ${report.to}. The table below gives the same numbers.`} />
            <UsageTable report={report} />
          </>
        )}
      </section>
      <UsageCaps agents={choices.agents} caps={caps} />
    </AdminSubpage>
  );
}
