import type { Prisma } from "@/lib/db/open-database";
import type { Embedder } from "./embedder";
import { episodeEmbeddingText } from "./end-session";
import { procedureEmbeddingText } from "./manage-procedures";

const BATCH = 64;

/**
 * Embeds every knowledge chunk, episode and procedure again with `embedder` and records the new
 * model and dimension. The HNSW indexes are partial, one per dimension (migration
 * 20261125010000_retention_and_vector_indexes), so each row moves to the new dimension's index by
 * itself; for a dimension without one, start-up says how to create it. Run with Chorus stopped:
 * it is `npm run reembed`.
 */
export async function reembedAll({ prisma, embedder }: { prisma: Prisma; embedder: Embedder }, progress: (done: number, total: number) => void = () => undefined) {
  const total = (await prisma.knowledgeChunk.count()) + (await prisma.episode.count()) + (await prisma.procedure.count());
  let done = 0;
  const each = async <Row extends { id: string }>(rows: Row[], text: (row: Row) => string, save: (row: Row, embedding: number[]) => Promise<unknown>) => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = rows.slice(start, start + BATCH);
      const vectors = await embedder.embed(batch.map(text));
      await prisma.$transaction(batch.map((row, index) => save(row, vectors[index]!) as never));
      done += batch.length;
      progress(done, total);
    }
    return rows.length;
  };
  const chunks = await each(await prisma.knowledgeChunk.findMany({ select: { id: true, content: true } }), (row) => row.content, (row, embedding) => prisma.knowledgeChunk.update({ where: { id: row.id }, data: { embedding } }));
  const episodes = await each(
    await prisma.episode.findMany({ select: { id: true, summary: true, facts: true } }),
    episodeEmbeddingText,
    (row, embedding) => prisma.episode.update({ where: { id: row.id }, data: { embedding } }),
  );
  const procedures = await each(
    await prisma.procedure.findMany({ select: { id: true, name: true, steps: true } }),
    procedureEmbeddingText,
    (row, embedding) => prisma.procedure.update({ where: { id: row.id }, data: { embedding } }),
  );
  await prisma.$transaction([
    prisma.memorySetting.upsert({ where: { key: "embedding.dimensions" }, create: { key: "embedding.dimensions", value: String(embedder.dimensions) }, update: { value: String(embedder.dimensions) } }),
    prisma.memorySetting.upsert({ where: { key: "embedding.model" }, create: { key: "embedding.model", value: embedder.name }, update: { value: embedder.name } }),
  ]);
  return { chunks, episodes, procedures };
}
