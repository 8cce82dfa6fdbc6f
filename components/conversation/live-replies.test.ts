import { describe, expect, it } from "vitest";
import { markdownBlocks } from "./live-replies";

const block = (text: string) => ({ kind: "block", text });

describe("markdownBlocks", () => {
  it("cuts at blank lines, never inside a code fence, so finished blocks stay the same text as the reply grows", () => {
    const text = "First paragraph\nstill first.\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast, being wri";
    expect(markdownBlocks(text)).toEqual([block("First paragraph\nstill first."), block("```ts\nconst a = 1;\n\nconst b = 2;\n```"), block("| a | b |\n|---|---|\n| 1 | 2 |"), block("Last, being wri")]);
    expect(markdownBlocks(`${text}tten`).slice(0, 3)).toEqual(markdownBlocks(text).slice(0, 3));
    expect(markdownBlocks("```\nopen fence\n\nstill code")).toEqual([block("```\nopen fence\n\nstill code")]);
    expect(markdownBlocks("")).toEqual([]);
  });

  it("cuts a list into its items, each with its continuation lines, so writing one item leaves the others as they were", () => {
    const text = "Steps:\n\n1. check the notes\n   with the team\n2. ship\n   - on Monday\n3. announce it to every";
    expect(markdownBlocks(text)).toEqual([block("Steps:"), { kind: "list", items: ["1. check the notes\n   with the team", "2. ship\n   - on Monday", "3. announce it to every"] }]);
    expect(markdownBlocks("- a\n- b\n\nAfter.")).toEqual([{ kind: "list", items: ["- a", "- b"] }, block("After.")]);
    expect(markdownBlocks("Read back:\n1. one\n2. two")).toEqual([block("Read back:"), { kind: "list", items: ["1. one", "2. two"] }]);
  });

  it("numbers each ordered item as the whole list shows it, and starts a new list where the marker changes", () => {
    expect(markdownBlocks("1. one\n1. two\n1. three")).toEqual([{ kind: "list", items: ["1. one", "2. two", "3. three"] }]);
    expect(markdownBlocks("3) three\n9) four")).toEqual([{ kind: "list", items: ["3) three", "4) four"] }]);
    expect(markdownBlocks("1. one\n2. two\n- a bullet\n3. three")).toEqual([
      { kind: "list", items: ["1. one", "2. two"] },
      { kind: "list", items: ["- a bullet"] },
      { kind: "list", items: ["3. three"] },
    ]);
  });

  it("leaves a paragraph whole when a later line only looks like an item, and never cuts inside a fence", () => {
    expect(markdownBlocks("We shipped in\n2. quarter")).toEqual([block("We shipped in\n2. quarter")]);
    expect(markdownBlocks("```\n1. not an item\n- nor this\n```")).toEqual([block("```\n1. not an item\n- nor this\n```")]);
  });
});
