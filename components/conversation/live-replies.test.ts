import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./live-replies";

describe("markdownBlocks", () => {
  it("cuts at blank lines, never inside a code fence, so finished blocks stay the same text as the reply grows", () => {
    const text = "First paragraph\nstill first.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast, being wri";
    expect(markdownBlocks(text)).toEqual(["First paragraph\nstill first.", "```ts\nconst a = 1;\n\nconst b = 2;\n```", "| a | b |\n|---|---|\n| 1 | 2 |", "Last, being wri"]);
    expect(markdownBlocks(`${text}tten`).slice(0, 3)).toEqual(markdownBlocks(text).slice(0, 3));
    expect(markdownBlocks("```\nopen fence\n\nstill code")).toEqual(["```\nopen fence\n\nstill code"]);
    expect(markdownBlocks("")).toEqual([]);
  });
});
