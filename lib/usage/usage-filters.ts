import { z } from "zod";

export const usageGroupings = ["day", "agent", "person"] as const;
export type UsageGrouping = (typeof usageGroupings)[number];

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day (UTC) as forms send it: YYYY-MM-DD, or empty for the default. */
const day = (label: string) =>
  z.preprocess(
    (value) => (value === "" ? undefined : value),
    z
      .string()
      .regex(isoDay, { error: `${label} must be a date as YYYY-MM-DD.`, abort: true })
      .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value), `${label} is not a date in the calendar.`)
      .optional(),
  );

/** An id picked from a list; empty means "all". */
const pick = z.preprocess((value) => (value === "" ? undefined : value), z.string().max(100).optional());

/**
 * What the usage page and its CSV download read: a range of UTC days (both included), an agent,
 * a person, and what the rows are per. Browser-safe: the page's form and the route share it.
 */
export const usageFiltersSchema = z
  .object({
    from: day("From"),
    to: day("To"),
    agentId: pick,
    userId: pick,
    groupBy: z.enum(usageGroupings, { error: "Group by day, agent or person." }).default("day"),
  })
  .refine((filters) => !filters.from || !filters.to || filters.from <= filters.to, {
    path: ["to"],
    message: "To must be on or after From.",
    // Only between two real days: a refused date says what is wrong with it alone.
    when: (payload) => payload.issues.length === 0,
  });

export type UsageFilters = z.infer<typeof usageFiltersSchema>;

/** The range when none is given: the last 30 days, today (UTC) included. */
export const DEFAULT_DAYS = 30;

/** The filters with their range filled in, as days. */
export function resolveRange(filters: UsageFilters, now: Date): { from: string; to: string } {
  const today = now.toISOString().slice(0, 10);
  const to = filters.to ?? (filters.from && filters.from > today ? filters.from : today);
  const from = filters.from ?? new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to };
}

/** The filters as a query string (for the CSV link and the form's URL). */
export function usageQuery(filters: UsageFilters): string {
  const entries = Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === "string" && entry[1] !== "");
  return new URLSearchParams(entries).toString();
}

/**
 * The filters of a page's or a request's query string. A refused field is named in `errors` and
 * read as not given, so the page still shows the rest; the CSV route refuses the request.
 */
export function readUsageFilters(query: URLSearchParams): { filters: UsageFilters; errors: Partial<Record<keyof UsageFilters, string>> } {
  const input: Record<string, string> = Object.fromEntries(query.entries());
  const parsed = usageFiltersSchema.safeParse(input);
  if (parsed.success) return { filters: parsed.data, errors: {} };
  const errors: Partial<Record<keyof UsageFilters, string>> = {};
  for (const issue of parsed.error.issues) errors[issue.path[0] as keyof UsageFilters] ??= issue.message;
  const kept = Object.fromEntries(Object.entries(input).filter(([name]) => !(name in errors)));
  return { filters: usageFiltersSchema.catch({ groupBy: "day" }).parse(kept), errors };
}
