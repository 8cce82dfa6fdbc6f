import type { Prisma } from "@/lib/db/open-database";

/**
 * A chat history for the search benchmark, written by set-based SQL (generate_series), never a
 * row at a time: `messages` in 2,000 conversations, in 50 of which the searcher takes part, with
 * 20 people and 2 agents writing over a year. Words follow Zipf's law (a word's frequency is
 * inversely proportional to its rank), as in real text: the first ranks are everyday and work
 * words ("release" in about a quarter of all messages), then made-up words, rarer and rarer.
 */

export const CONVERSATIONS = 2_000;
export const SEARCHER_CONVERSATIONS = 50;
const PEOPLE = 20;
const AGENTS = 2;
const VOCABULARY = 50_000;

// Ranks 1–100: what a team's chat says most, stop words included (the index skips those).
const COMMON = (
  "the to release I and a it deploy we is for on test that this you build in fix with be bug of can review have not merge will branch " +
  "at database do customer just staging are meeting so search if error but page what login my query about feature there server they " +
  "cache from api all config was token or agent me ticket one design when team how latency then migration up index out schema no backup " +
  "get report more dashboard like metrics some invoice would docker should sprint our roadmap now onboarding after pipeline them rollback " +
  "could webhook also timeout"
).split(" ");
// Past rank 100, words are made of these syllables: the rank's digits in base 24.
const SYLLABLES = "ka lo mer ti vun sa ber do rel pi gon ta shu fen ri mab co lin zu pra del ho nix ve".split(" ");
const BASE = SYLLABLES.length;

/** The word of a rank, as the seeding SQL below writes it (the query mix picks rare words by rank). */
export function wordAt(rank: number): string {
  if (rank <= COMMON.length) return COMMON[rank - 1]!;
  const digit = (power: number) => SYLLABLES[Math.floor(rank / BASE ** power) % BASE]!;
  return digit(0) + digit(1) + digit(2) + (rank >= BASE ** 3 ? digit(3) : "");
}

// The same in SQL; `r` is the rank. Arrays are 1-based there.
const WORD_SQL = `CASE WHEN r <= cardinality($1::text[]) THEN ($1::text[])[r] ELSE
  ($2::text[])[1 + r % ${BASE}] || ($2::text[])[1 + (r / ${BASE}) % ${BASE}] || ($2::text[])[1 + (r / ${BASE ** 2}) % ${BASE}]
  || CASE WHEN r >= ${BASE ** 3} THEN ($2::text[])[1 + (r / ${BASE ** 3}) % ${BASE}] ELSE '' END END`;

export interface Corpus {
  searcherId: string;
  /** One of the searcher's conversations, and someone who writes there (for the filters). */
  conversationId: string;
  authorId: string;
}

/** Deterministic ids shaped like the app's (UUIDs), from a name and a number. */
const uuid = (kind: string, n: string) => `md5('${kind}' || ${n})::uuid::text`;

export async function seedCorpus(prisma: Prisma, messages: number): Promise<Corpus> {
  const { id: projectId } = await prisma.project.create({ data: { slug: "search-bench", name: "Search bench" } });
  await prisma.$executeRawUnsafe(`
    INSERT INTO "users" ("id", "name", "email", "handle", "updatedAt")
    SELECT ${uuid("user", "n")}, 'Person ' || n, 'person' || n || '@bench.test', 'person' || n, now() FROM generate_series(0, ${PEOPLE - 1}) n`);
  await prisma.$executeRawUnsafe(`
    INSERT INTO "agents" ("id", "projectId", "handle", "displayName", "color", "systemPrompt", "model", "updatedAt")
    SELECT ${uuid("agent", "n")}, $1, 'agent' || n, 'Agent ' || n, '#336699', 'x', 'offline', now() FROM generate_series(0, ${AGENTS - 1}) n`, projectId);
  await prisma.$executeRawUnsafe(`
    INSERT INTO "conversations" ("id", "projectId", "type", "key", "scope", "title", "lastSeq", "updatedAt")
    SELECT ${uuid("conversation", "n")}, $1, 'group', 'global', 'name:bench-' || n, 'bench ' || n, ${Math.ceil(messages / CONVERSATIONS)}, now()
    FROM generate_series(0, ${CONVERSATIONS - 1}) n`, projectId);
  // Person 0 searches: in every 40th conversation; everyone else is everywhere.
  await prisma.$executeRawUnsafe(`
    INSERT INTO "participants" ("id", "conversationId", "userId")
    SELECT gen_random_uuid()::text, ${uuid("conversation", "c")}, ${uuid("user", "u")}
    FROM generate_series(0, ${CONVERSATIONS - 1}) c, generate_series(0, ${PEOPLE - 1}) u
    WHERE u > 0 OR c % ${CONVERSATIONS / SEARCHER_CONVERSATIONS} = 0`);
  // Message n: conversation n mod 2,000 (conversations interleave in time, as they do), 4 to 20
  // words of log-uniform rank (Zipf), 30 s apart. Within a conversation (k: its seq − 1) people
  // take turns (the searcher only reads); one message in ten is an agent's, one in a hundred is
  // deleted (its content emptied), one in two hundred is a system notice.
  await prisma.$executeRawUnsafe(
    `INSERT INTO "messages" ("id", "conversationId", "seq", "authorUserId", "authorAgentId", "role", "content", "createdAt", "deletedAt")
     SELECT gen_random_uuid()::text, ${uuid("conversation", "c")}, k + 1,
            CASE WHEN k % 10 <> 9 AND k % 200 <> 7 THEN ${uuid("user", `(1 + (k + c) % ${PEOPLE - 1})`)} END,
            CASE WHEN k % 10 = 9 THEN ${uuid("agent", `(k % ${AGENTS})`)} END,
            (CASE WHEN k % 10 = 9 THEN 'assistant' WHEN k % 200 = 7 THEN 'system' ELSE 'user' END)::"MessageRole",
            CASE WHEN k % 100 = 3 THEN '' ELSE (
              SELECT string_agg(${WORD_SQL}, ' ')
              FROM (SELECT floor(exp(random() * ln(${VOCABULARY + 1})))::int AS r FROM generate_series(1, 4 + n % 17)) words) END,
            now() - (${messages} - n) * interval '30 seconds',
            CASE WHEN k % 100 = 3 THEN now() END
     FROM generate_series(0, ${messages - 1}) n, LATERAL (SELECT n % ${CONVERSATIONS} AS c, n / ${CONVERSATIONS} AS k) position`,
    COMMON,
    SYLLABLES,
  );
  const [corpus] = await prisma.$queryRawUnsafe<Corpus[]>(`SELECT ${uuid("user", "0")} AS "searcherId", ${uuid("conversation", "0")} AS "conversationId", ${uuid("user", "1")} AS "authorId"`);
  return corpus!;
}

/**
 * What people type, common and rare: the most frequent words (the hard case: a quarter of all
 * messages), pairs, a phrase, an exclusion, rare and very rare words, and the filters.
 */
export function queryMix(corpus: Corpus): { name: string; query: string; filters?: { conversationId?: string; authorId?: string; after?: Date } }[] {
  return [
    { name: "most common word", query: "release" },
    { name: "common word", query: "deploy" },
    { name: "two common words", query: "release deploy" },
    { name: "two mid words", query: "database migration" },
    { name: "phrase", query: '"staging database"' },
    { name: "exclusion", query: "login -error" },
    { name: "either word", query: "rollback or webhook" },
    { name: "rare word", query: wordAt(2_000) },
    { name: "very rare word", query: wordAt(30_000) },
    { name: "in one conversation", query: "release", filters: { conversationId: corpus.conversationId } },
    { name: "by one author", query: "deploy", filters: { authorId: corpus.authorId } },
    { name: "last week", query: "release", filters: { after: new Date(Date.now() - 7 * 86_400_000) } },
  ];
}
