import { describe, expect, it } from "vitest";
import { EventBudget } from "./event-budget";

describe("EventBudget", () => {
  it("lets a burst through, refuses the rest, and refills over time", () => {
    const budget = new EventBudget(3, 2, 0);
    expect([budget.take(0), budget.take(0), budget.take(0), budget.take(0)]).toEqual([true, true, true, false]);
    expect(budget.take(499)).toBe(false);
    expect(budget.take(500)).toBe(true);
  });

  it("does not charge refused events: retries while empty do not push the next success further away", () => {
    const budget = new EventBudget(2, 2, 0);
    budget.take(0);
    budget.take(0);
    expect([100, 200, 300, 400].map((t) => budget.take(t))).toEqual([false, false, false, false]);
    expect(budget.take(500)).toBe(true);
  });

  it("never holds more than its capacity after a long pause", () => {
    const budget = new EventBudget(2, 10, 0);
    expect([budget.take(60_000), budget.take(60_000), budget.take(60_000)]).toEqual([true, true, false]);
  });
});
