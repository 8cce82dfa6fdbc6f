import { describe, expect, it } from "vitest";
import { plainLine } from "./plain-line";

describe("plainLine", () => {
  it("takes a line of words as a paragraph, or as the one item of a list after its marker", () => {
    expect(plainLine("check part 5 of the release notes, before we ship (twice).")).toEqual({ kind: "paragraph", text: "check part 5 of the release notes, before we ship (twice)." });
    expect(plainLine("12. check part 12")).toEqual({ kind: "ordered", start: 12, text: "check part 12" });
    expect(plainLine("3) third")).toEqual({ kind: "ordered", start: 3, text: "third" });
    // A streamed line often ends with a space, which the parser drops.
    expect(plainLine("9. check part 9 of the ")).toEqual({ kind: "ordered", start: 9, text: "check part 9 of the" });
    expect(plainLine("- a bullet")).toEqual({ kind: "bullet", text: "a bullet" });
    expect(plainLine("Steps, as I read them: set OPENAI_API_KEY first")).toEqual({ kind: "paragraph", text: "Steps, as I read them: set OPENAI_API_KEY first" });
  });

  it("leaves to the parser anything markdown may read as syntax", () => {
    for (const line of ["**bold**", "a `code` span", "see [the notes](x)", "@toby said", "mail me at a@b.co", "http://example.com", "go to www.example.com", "a | b", "# Title", "> quoted", "a &amp; b", "a\\*b", "~~gone~~", "<b>x</b>", "_emphasis_", "a __strong__ word", "ends_", "![img](x)"]) {
      expect(plainLine(line), line).toBeNull();
    }
  });

  it("leaves to the parser what is not one line of text: line breaks, edges the parser trims, empty or nested items, breaks and underlines", () => {
    for (const line of ["two\nlines", "tab\there", "ends with another space\u00a0", " starts with one", "", "5.", "5. ", "- ", "1. 2. nested", "- - nested", "---", "===", "-not a bullet", "2020. was a year", "  indented"]) {
      const plain = plainLine(line);
      if (line === "2020. was a year") expect(plain).toEqual({ kind: "ordered", start: 2020, text: "was a year" });
      else expect(plain, JSON.stringify(line)).toBeNull();
    }
  });
});
