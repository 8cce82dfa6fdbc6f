"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { UsageRow } from "@/lib/usage/read-usage";
import { tokensText } from "./usage-format";

const compact = new Intl.NumberFormat("en", { notation: "compact", maximumFractionDigits: 1 });

/**
 * Input and output tokens stacked per group. The picture is one image to assistive technology,
 * named by `label`; the table below it holds the same numbers as text.
 */
export function UsageChart({ rows, label }: { rows: UsageRow[]; label: string }) {
  if (rows.length === 0) return null;
  return (
    <div role="img" aria-label={label} className="h-72 w-full text-slate-700 dark:text-slate-300">
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.2} vertical={false} />
          <XAxis dataKey="label" tick={{ fill: "currentColor", fontSize: 12 }} stroke="currentColor" interval="preserveStartEnd" />
          <YAxis tickFormatter={(value: number) => compact.format(value)} tick={{ fill: "currentColor", fontSize: 12 }} stroke="currentColor" width={48} />
          <Tooltip formatter={(value) => tokensText(Number(value))} contentStyle={{ color: "#0f172a" }} />
          <Legend />
          <Bar dataKey="inputTokens" name="Input tokens" stackId="tokens" fill="#6366f1" isAnimationActive={false} />
          <Bar dataKey="outputTokens" name="Output tokens" stackId="tokens" fill="#f59e0b" isAnimationActive={false} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
