import type { Retrieved, RetrievalTiming } from "@/lib/context/types";

export interface MemoryQuery {
  agentId: string;
  userId: string | null;
  conversationId: string;
  /** The message being answered: what memory is searched for. */
  text: string;
}

export interface MemoryRetrieval {
  retrieved: Retrieved;
  timing: { episodic: RetrievalTiming; semantic: RetrievalTiming; procedural: RetrievalTiming };
}

/** One memory store's search; the stores themselves arrive with issue 11. */
export type MemorySearch<T> = (query: MemoryQuery) => Promise<T>;

export interface MemoryStores {
  episodic: MemorySearch<Retrieved["episodes"]>;
  semantic: MemorySearch<Retrieved["knowledge"]>;
  procedural: MemorySearch<Retrieved["procedure"]>;
}

/** Until the stores exist, every search finds nothing (and says how long that took). */
export const emptyMemory: MemoryStores = {
  episodic: async () => [],
  semantic: async () => [],
  procedural: async () => null,
};

/**
 * The read phase (seed 002): episodic, semantic and procedural memory are searched in parallel,
 * each timed from the turn's start, so the inspector can show that they overlapped.
 */
export async function retrieveMemory(stores: MemoryStores, query: MemoryQuery, turnStartedAt: number): Promise<MemoryRetrieval> {
  const timed = async <T>(search: MemorySearch<T>): Promise<{ value: T; timing: RetrievalTiming }> => {
    const startedAt = performance.now();
    const value = await search(query);
    return { value, timing: { startedAt: round(startedAt - turnStartedAt), ms: round(performance.now() - startedAt) } };
  };
  const [episodic, semantic, procedural] = await Promise.all([timed(stores.episodic), timed(stores.semantic), timed(stores.procedural)]);
  return {
    retrieved: { episodes: episodic.value, knowledge: semantic.value, procedure: procedural.value },
    timing: { episodic: episodic.timing, semantic: semantic.timing, procedural: procedural.timing },
  };
}

const round = (ms: number) => Math.round(ms * 100) / 100;
