import { Worker } from "node:worker_threads";
import OpenAI from "openai";
import { countTokens } from "@/lib/llm/token-counter";
import { log } from "@/lib/log/logger";

/** Turns texts into unit-length vectors of a fixed dimension (cosine similarity = dot product). */
export interface Embedder {
  /** "local:use-lite" or "openai:<model>": stored with the dimension, so a change is noticed. */
  readonly name: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<number[][]>;
  /**
   * How many of a long job's `total` texts (a document's chunks) one embed call should carry:
   * each call is a step of the job's progress. Without it, 32.
   */
  batchFor?(total: number): number;
  /** Runs on this machine: a transaction may wait on it (never on a network call). */
  readonly local?: boolean;
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

/** What one embeddings request may carry. */
export interface RequestLimits {
  /** Inputs in one request. */
  maxInputs: number;
  /** Tokens of all its inputs together, counted with the model's tokenizer (tiktoken's guess for models it does not know). */
  maxTokens: number;
}

/** OpenAI's: 2,048 inputs and 300,000 tokens a request. */
export const OPENAI_REQUEST_LIMITS: RequestLimits = { maxInputs: 2_048, maxTokens: 300_000 };

/** Requests a long job is split into (progress moves after each), unless each would carry fewer than MIN_REQUEST_INPUTS. */
const REQUEST_STEPS = 10;
const MIN_REQUEST_INPUTS = 32;

/**
 * Consecutive groups of texts, each within the limits (a text alone over the token cap still
 * goes, alone: the endpoint says what is wrong with it).
 */
export function requestBatches(texts: string[], limits: RequestLimits, count: (text: string) => number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const text of texts) {
    const cost = count(text);
    if (current.length > 0 && (current.length >= limits.maxInputs || tokens + cost > limits.maxTokens)) {
      batches.push(current);
      current = [];
      tokens = 0;
    }
    current.push(text);
    tokens += cost;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/**
 * Any OpenAI-compatible /v1/embeddings (OpenAI, Ollama, vLLM): as few requests as the limits
 * allow, one after another. A document's ingestion hands it about a tenth of its chunks at a
 * time (at least 32), so progress moves while it is indexed.
 */
export function createOpenAIEmbedder({
  apiKey,
  baseURL,
  model,
  dimensions,
  limits = OPENAI_REQUEST_LIMITS,
}: {
  apiKey: string;
  baseURL?: string;
  model: string;
  dimensions: number;
  /** What one request may carry; OpenAI's by default. */
  limits?: RequestLimits;
}): Embedder {
  const client = new OpenAI({ apiKey, baseURL, timeout: 30_000, maxRetries: 2 });
  return {
    name: `openai:${model}`,
    dimensions,
    async embed(texts) {
      const vectors: number[][] = [];
      // A token is at least a byte: texts within the cap in bytes need no counting (a question never does).
      const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, "utf8"), 0);
      const count = bytes <= limits.maxTokens ? () => 0 : (text: string) => countTokens(text, model);
      for (const batch of requestBatches(texts, limits, count)) {
        const response = await client.embeddings.create({ model, input: batch, dimensions, encoding_format: "float" }).catch((error: unknown) => {
          throw new EmbeddingError(`The embeddings endpoint failed: ${error instanceof Error ? error.message : String(error)}`);
        });
        if (response.data.length !== batch.length) throw new EmbeddingError(`The embeddings endpoint returned ${response.data.length} vectors for ${batch.length} inputs.`);
        for (const item of [...response.data].sort((a, b) => a.index - b.index)) {
          if (item.embedding.length !== dimensions) {
            throw new EmbeddingError(`The embeddings endpoint returned ${item.embedding.length} dimensions where ${dimensions} were configured (EMBEDDINGS_DIMENSIONS).`);
          }
          vectors.push(normalise(item.embedding));
        }
      }
      return vectors;
    },
    batchFor: (total) => Math.min(limits.maxInputs, Math.max(MIN_REQUEST_INPUTS, Math.ceil(total / REQUEST_STEPS))),
    close: async () => undefined,
  };
}

/** Texts the worker embeds at once: a question asked meanwhile waits for at most one such batch. */
const WORKER_BATCH = 16;
/** Calls with this many texts or fewer (a question, a procedure, a session's episodes) go before a document's chunks. */
const URGENT_TEXTS = 8;
/** Texts a document's ingestion hands over at a time: a progress step of a fraction of a second. */
const INGESTION_STEP = 64;
const DIMENSIONS = 512;

export interface LocalEmbedder extends Embedder {
  /** What runs the model ("onnxruntime", or "tensorflow.js-wasm" where ONNX Runtime cannot load); null before the first answer. */
  engine(): string | null;
}

/**
 * The offline default: Universal Sentence Encoder Lite from an npm package, no network. The model
 * loads in a worker thread on first use and runs on ONNX Runtime (TensorFlow.js where that cannot
 * load); texts are embedded in batches, short calls first. `engine: "tensorflow"` forces the
 * TensorFlow.js backend (for comparisons).
 */
export function createLocalEmbedder({ engine: forced }: { engine?: "tensorflow" } = {}): LocalEmbedder {
  let worker: Worker | null = null;
  let nextId = 0;
  let engine: string | null = null;
  const pending = new Map<number, { resolve(vectors: Float32Array): void; reject(error: Error): void }>();
  type Item = { text: string; resolve(vector: number[]): void; reject(error: Error): void };
  const urgent: Item[] = [];
  const bulk: Item[] = [];
  let flushing = false;

  const start = () => {
    const created = new Worker(new URL("./embedding-worker.mjs", import.meta.url), { workerData: { engine: forced } });
    created.unref();
    created.on("message", ({ id, vectors, error, engine: used, fallback }: { id: number; vectors?: Float32Array; error?: string; engine?: string; fallback?: string | null }) => {
      if (used && used !== engine) {
        engine = used;
        if (fallback) log.warn("offline embedding model: ONNX Runtime could not load, using TensorFlow.js (slower)", { reason: fallback });
        else log.info("offline embedding model loaded", { engine: used });
      }
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
    new Promise<Float32Array>((resolve, reject) => {
      worker ??= start();
      const id = nextId++;
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts });
    });

  const flush = async () => {
    if (flushing) return;
    flushing = true;
    try {
      while (urgent.length > 0 || bulk.length > 0) {
        const batch = urgent.splice(0, WORKER_BATCH);
        batch.push(...bulk.splice(0, WORKER_BATCH - batch.length));
        try {
          const vectors = await run(batch.map((item) => item.text));
          batch.forEach((item, index) => item.resolve(normalise(Array.from(vectors.subarray(index * DIMENSIONS, (index + 1) * DIMENSIONS)))));
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
    dimensions: DIMENSIONS,
    embed(texts) {
      const queue = texts.length <= URGENT_TEXTS ? urgent : bulk;
      const vectors = Promise.all(texts.map((text) => new Promise<number[]>((resolve, reject) => queue.push({ text, resolve, reject }))));
      void flush();
      return vectors;
    },
    batchFor: () => INGESTION_STEP,
    local: true,
    engine: () => engine,
    async close() {
      await worker?.terminate();
      worker = null;
    },
  };
}
