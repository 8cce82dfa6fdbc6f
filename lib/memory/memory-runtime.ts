import type { Env } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { createLocalEmbedder, createOpenAIEmbedder, type Embedder } from "./embedder";
import { createMemoryStores } from "./memory-stores";
import type { MemoryStores } from "./retrieve-memory";
import { prepareVectorStore, type VectorStore } from "./vector-store";

export interface Memory {
  embedder: Embedder;
  vectors: VectorStore;
  stores: MemoryStores;
}

/** An OpenAI-compatible endpoint when one is configured; the offline model otherwise. */
export function embedderFor(env: Env): Embedder {
  const apiKey = env.EMBEDDINGS_API_KEY ?? env.OPENAI_API_KEY;
  if (env.EMBEDDINGS_BASE_URL || apiKey) {
    return createOpenAIEmbedder({ apiKey: apiKey ?? "none", baseURL: env.EMBEDDINGS_BASE_URL ?? env.OPENAI_BASE_URL, model: env.EMBEDDINGS_MODEL, dimensions: env.EMBEDDINGS_DIMENSIONS });
  }
  return createLocalEmbedder();
}

/** The memory of one node: embedder, vector search (dimension checked at start-up) and the three stores. */
export async function openMemory(db: Database, embedder: Embedder): Promise<Memory> {
  const vectors = await prepareVectorStore(db, embedder);
  return { embedder, vectors, stores: createMemoryStores({ prisma: db.prisma, vectors, embedder }) };
}
