import { describe, expect, it } from "vitest";
import { capReachedText, capState, capWarningText, monthStart } from "./monthly-cap";

describe("monthly cap", () => {
  it("counts from the first instant of the calendar month in UTC", () => {
    expect(monthStart(new Date("2026-11-30T23:59:59Z")).toISOString()).toBe("2026-11-01T00:00:00.000Z");
    expect(monthStart(new Date("2026-12-01T00:00:00Z")).toISOString()).toBe("2026-12-01T00:00:00.000Z");
  });

  it("warns from 80 % and is reached at 100 %; no cap, no state", () => {
    expect(capState(500, null)).toBeNull();
    expect(capState(799, 1000)).toMatchObject({ percent: 79, warn: false, reached: false });
    expect(capState(800, 1000)).toMatchObject({ percent: 80, warn: true, reached: false });
    expect(capState(999, 1000)).toMatchObject({ percent: 99, warn: true, reached: false });
    expect(capState(1000, 1000)).toMatchObject({ percent: 100, warn: true, reached: true });
    expect(capState(1500, 1000)).toMatchObject({ percent: 150, reached: true });
  });

  it("says what the agent answers at the cap and what admins see before", () => {
    expect(capReachedText("Toby", 1_000_000)).toBe("Toby has reached its monthly token cap (1,000,000 tokens); an admin can raise it in the agent's settings.");
    expect(capWarningText(capState(820, 1000)!)).toBe("82% of this month's cap used (820 of 1,000 tokens).");
    expect(capWarningText(capState(1000, 1000)!)).toMatch(/^Monthly token cap reached: 1,000 of 1,000 tokens used\./);
  });
});
