import type { Prisma } from "@/lib/db/open-database";
import { isParticipant } from "@/lib/conversations/assert-participant";
import { messageInclude, toMessageDto, type MessageDto } from "@/lib/conversations/message-dto";
import { withSourceStates } from "@/lib/conversations/source-states";
import { AppError } from "@/lib/errors/app-error";

export interface ForkSummary {
  id: string;
  title: string;
  status: "running" | "finished";
  /** 1 for a fork of an ordinary conversation. */
  depth: number;
  agent: { id: string; handle: string; displayName: string; color: string } | null;
  /** The person's message the fork answers, as it reads in the parent. */
  question: string;
  createdAt: string;
}

export interface ForkDetail extends ForkSummary {
  parent: { id: string; title: string; type: string };
  /** The ordinary conversation at the root of the chain (the parent, for a first-level fork). */
  root: { id: string; title: string };
  forkedFromMessageId: string;
  /** Oldest first: the copied starting context, the specialist's steps, its result. */
  messages: MessageDto[];
  /** Forks made from this one. */
  forks: ForkSummary[];
}

/** More than any fork holds: a specialist's few steps after a handful of copies. */
const FORK_MESSAGE_LIMIT = 500;

const forkColumns = {
  id: true,
  title: true,
  forkStatus: true,
  forkDepth: true,
  forkedFromMessageId: true,
  createdAt: true,
  forkAgent: { select: { id: true, handle: true, displayName: true, color: true } },
} as const;

type ForkRow = { id: string; title: string; forkStatus: string | null; forkDepth: number; forkedFromMessageId: string | null; createdAt: Date; forkAgent: ForkSummary["agent"] };

const notFound = () => new AppError("not_found", "There is no such forked context, or you cannot see it.");

/** The forks made from a conversation, newest first. */
export async function listForks(prisma: Prisma, { userId, conversationId }: { userId: string; conversationId: string }): Promise<ForkSummary[]> {
  if (!(await isParticipant(prisma, { userId, conversationId }))) throw new AppError("not_found", "There is no such conversation, or you are not in it.");
  return summaries(prisma, await prisma.conversation.findMany({ where: { parentConversationId: conversationId }, orderBy: { createdAt: "desc" }, select: forkColumns }));
}

/** A fork with everything in it, for the participants of the conversation at its root. */
export async function readFork(prisma: Prisma, { userId, forkId }: { userId: string; forkId: string }): Promise<ForkDetail> {
  const fork = await prisma.conversation.findFirst({
    where: { id: forkId, type: "fork" },
    select: { ...forkColumns, parent: { select: { id: true, title: true, type: true } }, root: { select: { id: true, title: true } } },
  });
  if (!fork?.parent || !fork.root || !(await isParticipant(prisma, { userId, conversationId: forkId }))) throw notFound();
  const [summary, rows, children] = await Promise.all([
    summaries(prisma, [fork]).then((list) => list[0]!),
    prisma.message.findMany({ where: { conversationId: forkId }, orderBy: { seq: "asc" }, take: FORK_MESSAGE_LIMIT, include: messageInclude }),
    prisma.conversation.findMany({ where: { parentConversationId: forkId }, orderBy: { createdAt: "desc" }, select: forkColumns }),
  ]);
  return { ...summary, parent: fork.parent, root: fork.root, forkedFromMessageId: fork.forkedFromMessageId!, messages: await withSourceStates(prisma, rows.map(toMessageDto)), forks: await summaries(prisma, children) };
}

async function summaries(prisma: Prisma, rows: ForkRow[]): Promise<ForkSummary[]> {
  const questions = await prisma.message.findMany({ where: { id: { in: rows.flatMap((row) => row.forkedFromMessageId ?? []) } }, select: { id: true, content: true } });
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    status: row.forkStatus === "finished" ? "finished" : "running",
    depth: row.forkDepth,
    agent: row.forkAgent,
    question: questions.find((question) => question.id === row.forkedFromMessageId)?.content ?? "",
    createdAt: row.createdAt.toISOString(),
  }));
}
