import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { chunkText } from "./chunk-text";

describe("chunkText", () => {
  it("keeps a short document whole", () => {
    expect(chunkText("Annual leave is 25 days.\n\nAsk your manager.")).toEqual(["Annual leave is 25 days.\n\nAsk your manager."]);
  });

  it("cuts long text on sentence boundaries and repeats the previous chunk's last sentence", () => {
    const sentences = Array.from({ length: 30 }, (_, index) => `Sentence number ${index} says something useful about the policy.`);
    const chunks = chunkText(sentences.join(" "), { size: 300, overlap: 80 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(300);
      expect(chunk).toMatch(/^Sentence number \d+ .*\.$/s);
    }
    // Overlap: each chunk starts with a sentence the previous one ended with.
    for (let index = 1; index < chunks.length; index++) expect(chunks[index - 1]!.endsWith(chunks[index]!.split("\n\n")[0]!)).toBe(true);
  });

  it("never loses text: every word of the document is in some chunk, and chunks stay under the size", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}[.!?]?$/), { minLength: 1, maxLength: 400 }), fc.integer({ min: 80, max: 600 }), (words, size) => {
        const text = words.join(" ");
        const chunks = chunkText(text, { size, overlap: Math.floor(size / 5) });
        const joined = chunks.join(" ");
        for (const word of words) expect(joined).toContain(word.replace(/[.!?]$/, ""));
        for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(size);
      }),
    );
  });

  it("cuts a sentence too long for a chunk between its words", () => {
    // Found by the property above (seed 729870951): the sentence was cut every 64 characters, inside "aaaaaaba".
    const words = ["aaaaaaaaa", "aaaaaaaaaaaa", "aaaaa", "aaaaaaaa", "aaa", "aaaaaaaaaa", "aaa", "aaaaaaba"];
    const chunks = chunkText(words.join(" "), { size: 80, overlap: 16 });
    expect(chunks.flatMap((chunk) => chunk.split(/\s+/))).toEqual(expect.arrayContaining(words));
    for (const chunk of chunks) expect(chunk.length).toBeLessThanOrEqual(80);
  });

  it("returns nothing for empty text", () => {
    expect(chunkText("  \n\n ")).toEqual([]);
  });
});
