import { describe, expect, it } from "vitest";
import { chunkText } from "./chunk-text";
import { sharedLength, sourcePassages } from "./source-passages";

describe("a cited chunk in its document", () => {
  const paragraphs = Array.from({ length: 12 }, (_, index) => `Paragraph ${index}: ${"words ".repeat(30).trim()} end ${index}.`);
  const chunks = chunkText(paragraphs.join("\n\n"), { size: 600, overlap: 250 }).map((content, ordinal) => ({ ordinal, content }));

  it("shows the cited chunk whole between its neighbours, each neighbour without the text it shares with it", () => {
    expect(chunks.length).toBeGreaterThan(3);
    const passages = sourcePassages(chunks, 1);
    expect(passages.map(({ ordinal, cited }) => [ordinal, cited])).toEqual([[0, false], [1, true], [2, false]]);
    expect(passages[1]!.text).toBe(chunks[1]!.content);
    // Read in order, the three passages are the document's text once, with no paragraph repeated.
    const shown = passages.map((passage) => passage.text).join("\n\n").split("\n\n");
    expect(new Set(shown).size).toBe(shown.length);
    expect(paragraphs.slice(0, shown.length)).toEqual(shown);
  });

  it("has no neighbour before the first chunk or after the last, and nothing for an ordinal it was not given", () => {
    expect(sourcePassages(chunks.slice(0, 2), 0).map((passage) => passage.ordinal)).toEqual([0, 1]);
    const last = chunks.length - 1;
    expect(sourcePassages(chunks.slice(-2), last).map((passage) => passage.ordinal)).toEqual([last - 1, last]);
    expect(sourcePassages(chunks, 99)).toEqual([]);
  });

  it("finds shared text only on a blank-line boundary: a chunk that merely starts like the other ends shares nothing", () => {
    expect(sharedLength("A.\n\nB.", "B.\n\nC.")).toBe(2);
    expect(sharedLength("ends with B", "B and more")).toBe(0);
    expect(sharedLength("x\n\nA.\n\nB.", "A.\n\nB.\n\nC.")).toBe(6);
  });
});
