import { describe, expect, it } from "vitest";
import { readUsageFilters, resolveRange, usageFiltersSchema, usageQuery } from "./usage-filters";

const errors = (input: Record<string, unknown>) => {
  const parsed = usageFiltersSchema.safeParse(input);
  return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
};

describe("usage filters", () => {
  it("reads a form's empty fields as no filter and groups per day by default", () => {
    expect(usageFiltersSchema.parse({ from: "", to: "", agentId: "", userId: "" })).toEqual({ groupBy: "day" });
  });

  it("refuses dates that are not days, a range that ends before it starts and unknown groupings, by field", () => {
    expect(errors({ from: "yesterday" }).from).toBe("From must be a date as YYYY-MM-DD.");
    expect(errors({ to: "2026-02-30" }).to).toBe("To is not a date in the calendar.");
    expect(errors({ from: "2026-11-10", to: "2026-11-09" }).to).toBe("To must be on or after From.");
    expect(errors({ groupBy: "week" }).groupBy).toBe("Group by day, agent or person.");
  });

  it("fills the range: the last 30 days up to today, or 30 days up to a given end", () => {
    const now = new Date("2026-11-29T12:00:00Z");
    expect(resolveRange({ groupBy: "day" }, now)).toEqual({ from: "2026-10-31", to: "2026-11-29" });
    expect(resolveRange({ groupBy: "day", to: "2026-03-01" }, now)).toEqual({ from: "2026-01-31", to: "2026-03-01" });
    expect(resolveRange({ groupBy: "day", from: "2026-11-01" }, now)).toEqual({ from: "2026-11-01", to: "2026-11-29" });
  });

  it("writes the filters back as a query string, leaving out the empty ones", () => {
    expect(usageQuery({ groupBy: "agent", from: "2026-11-01", agentId: "a 1" })).toBe("groupBy=agent&from=2026-11-01&agentId=a+1");
  });
});

describe("usage filters from a query string", () => {
  it("keeps the fields that are right and names the ones refused", () => {
    const { filters, errors } = readUsageFilters(new URLSearchParams("from=2026-13-01&to=2026-11-30&groupBy=agent&other=x"));
    expect(errors).toEqual({ from: "From is not a date in the calendar." });
    expect(filters).toEqual({ to: "2026-11-30", groupBy: "agent" });
  });
});
