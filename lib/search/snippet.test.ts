import { describe, expect, it } from "vitest";
import { splitSnippet } from "./snippet";

describe("splitSnippet", () => {
  it("turns ts_headline's markers into marked pieces", () => {
    expect(splitSnippet("we \u0002deployed\u0003 it to \u0002staging\u0003")).toEqual([
      { text: "we ", match: false },
      { text: "deployed", match: true },
      { text: " it to ", match: false },
      { text: "staging", match: true },
    ]);
  });

  it("keeps markup as text and drops stray or empty markers", () => {
    expect(splitSnippet("<img src=x onerror=alert(1)> \u0002x\u0003\u0002\u0003 end\u0003")).toEqual([
      { text: "<img src=x onerror=alert(1)> ", match: false },
      { text: "x", match: true },
      { text: " end", match: false },
    ]);
    expect(splitSnippet("")).toEqual([]);
  });
});
