import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import type { SearchInput } from "./search-input";
import { HEADLINE_OPTIONS, splitSnippet, type SnippetPart } from "./snippet";

export const SEARCH_PAGE_SIZE = 20;
/** How many matches a search ranks: when more match, the newest this many are ranked. */
export const SEARCH_CANDIDATES = 100;

/** One message found, as the search screen and `GET /api/search` show it. */
export interface SearchResult {
  id: string;
  conversationId: string;
  /** As the sidebar names it: the channel, or the other party of a direct message. */
  conversationTitle: string;
  seq: number;
  /** Null when the author's account or agent no longer exists. */
  author: { kind: "user" | "agent"; id: string; name: string } | null;
  createdAt: string;
  /** The passages around the matches, with the matched words marked. */
  snippet: SnippetPart[];
  rank: number;
}

export interface SearchPage {
  /** Best first (ties: newest first). */
  results: SearchResult[];
  /** How many messages match, counted up to SEARCH_CANDIDATES. */
  total: number;
  /** More than SEARCH_CANDIDATES match: the newest of them were ranked; narrow the search to see others. */
  more: boolean;
  /** Pass as `offset` for the next page; null on the last. */
  nextOffset: number | null;
}

interface Row {
  total: number;
  /** The parsed query's size and what an index can look for in it (refusal()). */
  nodes: number;
  tree: string;
  id: string | null;
  conversationId: string;
  conversationTitle: string;
  seq: number;
  authorKind: "user" | "agent" | null;
  authorId: string | null;
  authorName: string | null;
  createdAt: Date;
  headline: string;
  rank: number;
}

/**
 * The messages matching `query` (web search syntax, English stemming) in the conversations
 * `userId` takes part in, ranked, with highlighted snippets. Who may read what is part of the
 * statement itself: only the person's own conversations (never forks, which have no
 * participants) are searched and counted. Deleted and system messages are never found. When
 * more than SEARCH_CANDIDATES match, the newest of them are ranked.
 */
export async function searchMessages(
  prisma: Prisma,
  { userId, query, conversationId, authorId, after, before, offset = 0, limit = SEARCH_PAGE_SIZE }: Omit<SearchInput, "offset"> & { userId: string; offset?: number; limit?: number },
): Promise<SearchPage> {
  const take = Math.max(0, Math.min(limit, SEARCH_CANDIDATES - offset));
  // One call of the database function (migration 20261126030000), which keeps its plan.
  const rows = await prisma.$queryRaw<Row[]>`
    SELECT * FROM "chorus_search_messages"(${userId}, ${query}, ${conversationId ?? null}::text, ${authorId ?? null}::text,
      ${after ?? null}::timestamp(3), ${before ?? null}::timestamp(3), ${SEARCH_CANDIDATES}::int, ${take}::int, ${offset}::int, ${HEADLINE_OPTIONS})`;
  const [first] = rows;
  const refused = refusal(query, first!);
  if (refused) throw new AppError("bad_request", refused);
  const total = Math.min(first!.total, SEARCH_CANDIDATES);
  const results = rows.filter((row) => row.id !== null).map(toResult);
  const end = offset + results.length;
  return { results, total, more: first!.total > SEARCH_CANDIDATES, nextOffset: results.length === take && end < total ? end : null };
}

/**
 * Why a search finds nothing by its very words: the parser left nothing of them (only stop
 * words or symbols), or only words to leave out (querytree, what an index can look for, is "T").
 */
function refusal(query: string, { nodes, tree }: Pick<Row, "nodes" | "tree">): string | null {
  const quoted = query.length > 60 ? `${query.slice(0, 60)}…` : query;
  if (nodes === 0) return `Nothing to search for in "${quoted}": it has only very common words (like "the" or "and") or symbols. Add a more specific word.`;
  if (tree === "T") return `"${quoted}" only says which words to leave out (-word). Add a word to look for.`;
  return null;
}

function toResult(row: Row): SearchResult {
  return {
    id: row.id!,
    conversationId: row.conversationId,
    conversationTitle: row.conversationTitle,
    seq: row.seq,
    author: row.authorKind && row.authorId ? { kind: row.authorKind, id: row.authorId, name: row.authorName ?? "Unknown" } : null,
    createdAt: row.createdAt.toISOString(),
    snippet: splitSnippet(row.headline),
    rank: row.rank,
  };
}
