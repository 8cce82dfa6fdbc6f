import { Worker } from "node:worker_threads";
import OpenAI from "openai";

/** Turns texts into unit-length vectors of a fixed dimension (cosine similarity = dot product). */
export interface Embedder {
  /** "local:use-lite" or "openai:<model>": stored with the dimension, so a change is noticed. */
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
  close(): Promise<void>;
}

export class EmbeddingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmbeddingError";
  }
}

export function normalise(vector: number[]): number[] {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return norm === 0 ? vector : vector.map((value) => value / norm);
}

/** Any OpenAI-compatible /v1/embeddings (OpenAI, Ollama, vLLM), in batches. */
export function createOpenAIEmbedder({ apiKey, baseURL, model, dimensions }: { apiKey: string; baseURL?: string; model: string; dimensions: number }): Embedder {
  const client = new OpenAI({ apiKey, baseURL, timeout: 30_000, maxRetries: 2 });
  return {
    name: `openai:${model}`,
    dimensions,
    async embed(texts) {
      const vectors: number[][] = [];
      for (let start = 0; start < texts.length; start += 128) {
        const batch = texts.slice(start, start + 128);
        const response = await client.embeddings.create({ model, input: batch, dimensions, encoding_format: "float" }).catch((error: unknown) => {
          throw new EmbeddingError(`The embeddings endpoint failed: ${error instanceof Error ? error.message : String(error)}`);
        });
        for (const item of response.data) {
          if (item.embedding.length !== dimensions) {
            throw new EmbeddingError(`The embeddings endpoint returned ${item.embedding.length} dimensions where ${dimensions} were configured (EMBEDDINGS_DIMENSIONS).`);
          }
          vectors.push(normalise(item.embedding));
        }
      }
      return vectors;
    },
    close: async () => undefined,
  };
}

const LOCAL_BATCH = 32;

/**
 * The offline default: Universal Sentence Encoder Lite from an npm package, no network. The model
 * loads in a worker thread on first use; concurrent requests are batched together.
 */
export function createLocalEmbedder(): Embedder {
  let worker: Worker | null = null;
  let nextId = 0;
  const pending = new Map<number, { resolve(vectors: number[][]): void; reject(error: Error): void }>();
  const queue: { text: string; resolve(vector: number[]): void; reject(error: Error): void }[] = [];
  let flushing = false;

  const start = () => {
    const created = new Worker(new URL("./embedding-worker.mjs", import.meta.url));
    created.unref();
    created.on("message", ({ id, vectors, error }: { id: number; vectors?: number[][]; error?: string }) => {
      const waiter = pending.get(id);
      pending.delete(id);
      if (error || !vectors) waiter?.reject(new EmbeddingError(`The offline embedding model failed: ${error}`));
      else waiter?.resolve(vectors);
    });
    created.on("error", (error) => {
      for (const waiter of pending.values()) waiter.reject(new EmbeddingError(`The offline embedding model stopped: ${error.message}`));
      pending.clear();
      worker = null;
    });
    return created;
  };

  const run = (texts: string[]) =>
    new Promise<number[][]>((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });

  const flush = async () => {
    if (flushing) return;
    flushing = true;
    try {
      while (queue.length > 0) {
        const batch = queue.splice(0, LOCAL_BATCH);
        try {
          const vectors = await run(batch.map((item) => item.text));
          batch.forEach((item, index) => item.resolve(normalise(vectors[index]!)));
        } catch (error) {
          batch.forEach((item) => item.reject(error as Error));
        }
      }
    } finally {
      flushing = false;
    }
  };

  return {
    name: "local:use-lite",
    dimensions: 512,
    embed(texts) {
      const vectors = Promise.all(texts.map((text) => new Promise<number[]>((resolve, reject) => queue.push({ text, resolve, reject }))));
      void flush();
      return vectors;
    },
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
