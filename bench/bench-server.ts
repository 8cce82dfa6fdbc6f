import { openDatabase } from "@/lib/db/open-database";
import { TestApp } from "@/test/support/test-app";

/**
 * A bench posts questions far faster than people do: the backlog limits that refuse a person's
 * eleventh waiting question would stop it, so they are lifted (they are measured by tests).
 */
export const UNBOUNDED_BACKLOG = { MAX_QUEUED_TURNS_PER_CONVERSATION: "100000", MAX_QUEUED_TURNS_PER_PERSON: "100000" };

/**
 * The real server half (PGlite in memory, auth, Socket.IO) on a random port, for measuring;
 * with `modelURL`, agents of the OpenAI-compatible provider call that (fake) server.
 */
export async function startBenchServer(modelURL?: string): Promise<TestApp> {
  const model: Record<string, string> = modelURL ? { OPENAI_API_KEY: "bench", OPENAI_BASE_URL: modelURL } : {};
  return TestApp.create(await openDatabase({ engine: "pglite", dataDir: null }), { ...model, ...UNBOUNDED_BACKLOG, LOG_LEVEL: "error" });
}
