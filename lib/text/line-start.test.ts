import { describe, expect, it } from "vitest";
import { lineStart } from "./line-start";

describe("lineStart", () => {
  it("puts a text on one line and keeps a short one whole", () => {
    expect(lineStart("  Ship\n\non   Friday\t", 40)).toBe("Ship on Friday");
    expect(lineStart("x".repeat(40), 40)).toBe("x".repeat(40));
  });

  it("cuts a long text between words, within the room, with an ellipsis", () => {
    const cut = lineStart("the release notes need one more pass before we ship", 30);
    expect(cut).toBe("the release notes need one…");
    expect(cut.length).toBeLessThanOrEqual(30);
  });

  it("cuts a long word where the room ends rather than leave almost nothing", () => {
    expect(lineStart(`a ${"y".repeat(50)}`, 20)).toBe(`a ${"y".repeat(17)}…`);
  });
});
