import { readEnv } from "@/lib/config/env";
import { databaseTarget } from "@/lib/db/database-target";
import { openDatabase } from "@/lib/db/open-database";
import { embedderFor } from "@/lib/memory/memory-runtime";
import { reembedAll } from "@/lib/memory/reembed";

// `npm run reembed`: after changing the embedding model (EMBEDDINGS_*), embed every knowledge
// chunk, episode and procedure again and record the new dimension, so Chorus starts again.
const env = readEnv();
const db = await openDatabase(databaseTarget(env));
const embedder = embedderFor(env);
try {
  const counts = await reembedAll({ prisma: db.prisma, embedder }, (done, total) => process.stdout.write(`\rre-embedded ${done} of ${total}`));
  console.log(`\nDone: ${counts.chunks} knowledge chunks, ${counts.episodes} episodes, ${counts.procedures} procedures with ${embedder.name} (${embedder.dimensions} dimensions).`);
} catch (error) {
  console.error(`\nRe-embedding failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await embedder.close();
  await db.close();
}
