import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { contrastRatio, parseColour, readableTextOn } from "./readable-text";

describe("readableTextOn", () => {
  it("puts dark text on the light and mid colours that failed with white, and white on dark ones", () => {
    expect(readableTextOn("#22c55e")).toBe("#000000");
    expect(readableTextOn("#0ea5e9")).toBe("#000000");
    expect(readableTextOn("#a855f7")).toBe("#000000");
    expect(readableTextOn("#1e3a8a")).toBe("#ffffff");
  });

  it("parses the hsl colours given to people", () => {
    expect(parseColour("hsl(0 100% 50%)")).toEqual([255, 0, 0]);
    expect(parseColour("hsl(120 100% 25%)")).toEqual([0, 128, 0]);
    expect(parseColour("not a colour")).toBeNull();
  });

  it("always reaches 4.5:1 for any #rrggbb background", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffff }), (value) => {
        const background = `#${value.toString(16).padStart(6, "0")}`;
        expect(contrastRatio(parseColour(background)!, parseColour(readableTextOn(background))!)).toBeGreaterThanOrEqual(4.5);
      }),
    );
  });
});
