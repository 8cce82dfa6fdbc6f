import { describe, expect, it } from "vitest";
import { createOfflineProvider } from "@/lib/llm/offline-provider";
import { countTokens } from "@/lib/llm/token-counter";
import { planPieces, summariseSession } from "./summarise-session";

const count = (text: string) => countTokens(text, "gpt-4o");
const lines = (n: number) => Array.from({ length: n }, (_, i) => `ann: message ${i} about the release plan and its deadline on day ${i}`);

describe("planPieces", () => {
  it("keeps a transcript that fits in one piece", () => {
    expect(planPieces(lines(5), count, 1_000)).toEqual({ pieces: [lines(5)], covered: 5 });
  });

  it("splits a long transcript into pieces that each fit, in order", () => {
    const { pieces, covered } = planPieces(lines(60), count, 200);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.flat()).toEqual(lines(60));
    expect(covered).toBe(60);
    for (const piece of pieces) expect(count(piece.join("\n"))).toBeLessThanOrEqual(200);
  });

  it("keeps only the latest pieces when there are too many", () => {
    const { pieces, covered } = planPieces(lines(200), count, 100, 3);
    expect(pieces).toHaveLength(3);
    expect(covered).toBeLessThan(200);
    expect(pieces.flat()).toEqual(lines(200).slice(200 - covered));
  });

  it("cuts a single line longer than the budget", () => {
    const { pieces } = planPieces(["x ".repeat(5_000)], count, 50);
    expect(count(pieces[0]![0]!)).toBeLessThanOrEqual(50);
  });
});

describe("summariseSession", () => {
  const model = (budget: number) => ({ provider: createOfflineProvider({ chunkDelayMs: 0 }), model: "offline", budget, count });

  it("summarises a short session in one call", async () => {
    expect(await summariseSession(model(4_000), lines(4))).toMatchObject({ coverage: "whole", facts: expect.arrayContaining([lines(4)[0]]) });
  });

  it("summarises a session too long for the agent's budget in pieces, or its latest part, and says which", async () => {
    const inPieces = await summariseSession(model(700), lines(40));
    expect(inPieces.coverage).toMatch(/^pieces:\d+$/);
    expect(inPieces.summary.length).toBeGreaterThan(0);
    const latest = await summariseSession(model(600), lines(2_000));
    expect(latest.coverage).toMatch(/^latest:\d+\/2000$/);
  });
});
