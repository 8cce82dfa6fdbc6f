import type { UsageReport } from "./read-usage";

const groupHeaders = { day: "Day", agent: "Agent", person: "Person" } as const;

/**
 * One field as RFC 4180 writes it: quoted when it holds a comma, a quote or a line break, its
 * quotes doubled. Text that a spreadsheet would run as a formula (=, +, -, @ first: an agent or a
 * person may be named so) is kept as text by a leading apostrophe.
 */
export function csvField(value: string | number): string {
  if (typeof value === "number") return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The report as the page's table shows it, a header line first and a Total line last; CRLF line ends. */
export function usageCsv(report: UsageReport): string {
  const line = (fields: (string | number)[]) => fields.map(csvField).join(",");
  const values = (row: UsageReport["totals"]) => [row.inputTokens, row.outputTokens, row.inputTokens + row.outputTokens, row.costUsd.toFixed(6), row.turns];
  return [
    line([groupHeaders[report.groupBy], "Input tokens", "Output tokens", "Total tokens", "Cost (USD)", "Turns"]),
    ...report.rows.map((row) => line([row.label, ...values(row)])),
    line(["Total", ...values(report.totals)]),
  ]
    .map((text) => `${text}\r\n`)
    .join("");
}

/** The download's file name: what it holds and for which days. */
export function usageCsvName(report: Pick<UsageReport, "groupBy" | "from" | "to">): string {
  return `chorus-usage-by-${report.groupBy}-${report.from}-to-${report.to}.csv`;
}
