import type { Retrieved, RetrievalTiming } from "@/lib/context/types";

export interface MemoryQuery {
  agentId: string;
  /** Whose episodes may be recalled (null when an agent asked); a channel's own summaries are recalled in that channel only. */
  userId: string | null;
  conversationId: string;
  /** The message being answered: what memory is searched for. */
  text: string;
  semanticTopK: number;
  /** Knowledge by meaning alone, or fused with a full-text ranking (lib/memory/knowledge-search.ts). */
  knowledgeRetrieval: "vector" | "hybrid";
  episodicTopK: number;
  /** Least similarity for a procedure matched by meaning (a trigger match needs none). */
  procedureThreshold: number;
  /** What this agent and person have in memory, loaded with the turn (chorus_turn_context). */
  presence: MemoryPresence;
  /** The message's embedding, computed once for the three searches (and only if one needs it). */
  embedding(): Promise<number[]>;
}

export interface MemoryPresence {
  knowledge: boolean;
  episodes: boolean;
  /** The agent's approved procedures, newest first (without their embeddings: see MemoryStores.procedural). */
  procedures: { id: string; name: string; trigger: string | null; steps: string[] }[];
}

export interface MemoryRetrieval {
  retrieved: Retrieved;
  timing: { episodic: RetrievalTiming; semantic: RetrievalTiming; procedural: RetrievalTiming };
}

export type MemorySearch<T> = (query: MemoryQuery) => Promise<T>;

export interface MemoryStores {
  episodic: MemorySearch<Retrieved["episodes"]>;
  semantic: MemorySearch<Retrieved["knowledge"]>;
  procedural: MemorySearch<Retrieved["procedure"]>;
  /** Embeds the message being answered. */
  embed(text: string): Promise<number[]>;
}

/** No memory (scripts and tests without an embedder): every search finds nothing. */
export const emptyMemory: MemoryStores = {
  episodic: async () => [],
  semantic: async () => [],
  procedural: async () => null,
  embed: async () => [],
};

/**
 * The read phase (seed 002): episodic, semantic and procedural memory are searched in parallel,
 * each timed from the turn's start, so the inspector can show that they overlapped. The
 * message is embedded once, when the first search asks for it.
 */
export async function retrieveMemory(stores: MemoryStores, query: Omit<MemoryQuery, "embedding">, turnStartedAt: number): Promise<MemoryRetrieval> {
  let embedding: Promise<number[]> | null = null;
  const withEmbedding: MemoryQuery = { ...query, embedding: () => (embedding ??= stores.embed(query.text)) };
  const timed = async <T>(search: MemorySearch<T>): Promise<{ value: T; timing: RetrievalTiming }> => {
    const startedAt = performance.now();
    const value = await search(withEmbedding);
    return { value, timing: { startedAt: round(startedAt - turnStartedAt), ms: round(performance.now() - startedAt) } };
  };
  const [episodic, semantic, procedural] = await Promise.all([timed(stores.episodic), timed(stores.semantic), timed(stores.procedural)]);
  return {
    retrieved: { episodes: episodic.value, knowledge: semantic.value, procedure: procedural.value },
    timing: { episodic: episodic.timing, semantic: semantic.timing, procedural: procedural.timing },
  };
}

const round = (ms: number) => Math.round(ms * 100) / 100;
