import { describe, expect, it } from "vitest";
import { fuseRankings, RRF_K, TEXT_QUERY_CHARS, TEXT_QUERY_WORDS, textQueryWords } from "./knowledge-search";

describe("textQueryWords", () => {
  it("keeps each word with a letter or digit once, identifiers whole", () => {
    expect(textQueryWords("What does error E-4471 mean? -- ERROR, error!")).toEqual(["What", "does", "error", "E-4471", "mean?", "ERROR,", "error!"]);
    expect(textQueryWords("What  what WHAT ?! … ''")).toEqual(["What"]);
    expect(textQueryWords("?!… -- ;;")).toEqual([]);
  });

  it("reads a long question's first 1,000 characters, dropping the word cut there, and at most 32 words", () => {
    const long = `${"a".repeat(TEXT_QUERY_CHARS - 3)} E-4471 later words`;
    expect(textQueryWords(long)).toEqual(["a".repeat(TEXT_QUERY_CHARS - 3)]);
    const many = Array.from({ length: 5_000 }, (_, index) => `w${index}`).join(" ");
    expect(many.length).toBeGreaterThan(10_000);
    expect(textQueryWords(many)).toEqual(Array.from({ length: TEXT_QUERY_WORDS }, (_, index) => `w${index}`));
  });
});

describe("fuseRankings", () => {
  const rows = (...ids: string[]) => ids.map((id) => ({ id }));

  it("scores each chunk Σ 1/(60 + rank) over the rankings that found it, with both ranks", () => {
    const fused = fuseRankings(rows("a", "b", "c"), rows("c", "d"), 10);
    expect(fused.map(({ id }) => id)).toEqual(["c", "a", "d", "b"]);
    expect(fused[0]).toEqual({ id: "c", score: 1 / (RRF_K + 3) + 1 / (RRF_K + 1), vectorRank: 3, textRank: 1 });
    expect(fused.find(({ id }) => id === "b")).toEqual({ id: "b", score: 1 / (RRF_K + 2), vectorRank: 2, textRank: null });
    expect(fused.find(({ id }) => id === "d")).toEqual({ id: "d", score: 1 / (RRF_K + 2), vectorRank: null, textRank: 2 });
  });

  it("gives a tie to the text ranking, keeps the best k, and is the vector ranking when text found nothing", () => {
    expect(fuseRankings(rows("v"), rows("t"), 2).map(({ id }) => id)).toEqual(["t", "v"]);
    expect(fuseRankings(rows("a", "b", "c"), [], 2)).toEqual([
      { id: "a", score: 1 / (RRF_K + 1), vectorRank: 1, textRank: null },
      { id: "b", score: 1 / (RRF_K + 2), vectorRank: 2, textRank: null },
    ]);
  });
});
