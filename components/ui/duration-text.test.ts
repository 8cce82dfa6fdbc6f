import { describe, expect, it } from "vitest";
import { durationText } from "./duration-text";

describe("durations in words", () => {
  it("says seconds, minutes and hours, leaving out a zero part", () => {
    expect(durationText(200)).toBe("1 s");
    expect(durationText(4_600)).toBe("5 s");
    expect(durationText(120_000)).toBe("2 min");
    expect(durationText(130_400)).toBe("2 min 10 s");
    expect(durationText(3_600_000)).toBe("1 h");
    expect(durationText(3_900_000)).toBe("1 h 5 min");
  });
});
