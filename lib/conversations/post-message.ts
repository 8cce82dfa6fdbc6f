import { randomUUID } from "node:crypto";
import type { Prisma, Transaction } from "@/lib/db/open-database";
import { insertPanel, planPanel, type PanelPlan } from "@/lib/panels/plan-panel";
import { PANEL_HANDLE } from "@/lib/panels/panel-rules";
import { raw, sql } from "@/lib/generated/prisma/internal/prismaNamespace";
import { claimedDispatches, type ClaimedDispatch, type DispatchClaim } from "@/lib/dispatch/claim-dispatch";
import { attachToMessage, checkAttachmentsToSend } from "@/lib/attachments/send-attachments";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { avatarOf } from "@/lib/avatars/avatar-rules";
import { AppError } from "@/lib/errors/app-error";
import { countTokens } from "@/lib/llm/token-counter";
import { messageInclude, quoteOf, toMessageDto, type MessageDto, type QuotedMessage, unchangedMessage } from "./message-dto";
import type { PostMessageInput } from "./message-input";
import { userMessageMetadata } from "./message-metadata";
import { parseMentions } from "./parse-mentions";
import { rawRows } from "@/lib/db/raw-statements";

/** A burst of more than RATE_LIMIT messages is refused; the allowance refills at RATE_LIMIT per RATE_WINDOW_S. */
export const RATE_LIMIT = 20;
export const RATE_WINDOW_S = 10;
const RATE_REFILL_PER_S = RATE_LIMIT / RATE_WINDOW_S;

export interface PostMessageResult {
  message: MessageDto;
  /** False when this clientId was already posted: the first message is returned, nothing is written. */
  created: boolean;
  /** Who takes part, so their sidebars can be told (activity) without a query per user. */
  participantUserIds: string[];
  mentionedUserIds: string[];
  mentionedAgentIds: string[];
  /** @handles that matched no participant: the composer shows a hint. */
  unknownMentions: string[];
  /** Agents asked to answer: a dispatch row each was written with the message. */
  dispatchedAgentIds: string[];
  /** Those dispatch rows, for the worker to claim at once. */
  dispatchIds: string[];
  /** The panel the message asked, when it asked one (its agents start no ordinary turn). */
  panelId?: string;
  /** One of those dispatches, claimed by the post's statement (when asked to claim): its turn runs now, on this node. */
  claimed?: ClaimedDispatch | null;
}

/**
 * Writes a user's message with the conversation's next sequence number, its mentions and the
 * author's read position. Idempotent on (conversation, clientId): a retried or duplicated send
 * returns the first message. With `claim`, a post that starts agent turns claims one of them in
 * the same statement (not a post with files or a panel, written in a transaction of their own).
 */
export async function postMessage(
  prisma: Prisma,
  {
    userId,
    input,
    backlog = DEFAULT_BACKLOG,
    attachmentsPerMessage = DEFAULT_ATTACHMENTS_PER_MESSAGE,
    claim,
  }: { userId: string; input: PostMessageInput; backlog?: BacklogLimits; attachmentsPerMessage?: number; claim?: DispatchClaim },
): Promise<PostMessageResult> {
  const files = { userId, conversationId: input.conversationId, attachmentIds: input.attachmentIds ?? [] };
  try {
    if (files.attachmentIds.length > 0) {
      // A retry of a post that went through finds its files sent: it is answered as any retry.
      const posted = await findPosted(prisma, input);
      if (posted) return alreadyPosted(await existingMessage(prisma, userId, input));
      await checkAttachmentsToSend(prisma, files, attachmentsPerMessage);
    }
    const mentions = parseMentions(input.content);
    // Most posts ask no panel: one statement, which writes nothing when a mention names a saved panel.
    if (files.attachmentIds.length === 0 && !mentions.includes(PANEL_HANDLE)) {
      const posted = await insertMessage(prisma, { userId, input, mentions, backlog, unlessSavedPanel: mentions.length > 0, claim });
      if (posted) return posted;
    }
    const plan = await planPanel(prisma, { conversationId: input.conversationId, mentions });
    if (!plan && files.attachmentIds.length === 0) return (await insertMessage(prisma, { userId, input, mentions, backlog, claim }))!;
    // The question, its panel and its files are written together.
    const ordinary = plan ? mentions.filter((handle) => !plan.consumedHandles.includes(handle)) : mentions;
    return await prisma.$transaction(async (tx) => {
      const result = (await insertMessage(tx, { userId, input, mentions: ordinary, backlog, panel: plan ?? undefined }))!;
      if (files.attachmentIds.length > 0) result.message.attachments = await attachToMessage(tx, files, result.message.id);
      return result;
    });
  } catch (error) {
    // The same clientId again (a retry, or two sends racing): the unique constraint refused it.
    if (!isUniqueViolation(error)) throw error;
    return alreadyPosted(await existingMessage(prisma, userId, input));
  }
}

const DEFAULT_ATTACHMENTS_PER_MESSAGE = 10;

function alreadyPosted(message: MessageDto): PostMessageResult {
  return { message, created: false, participantUserIds: [], mentionedUserIds: [], mentionedAgentIds: [], unknownMentions: [], dispatchedAgentIds: [], dispatchIds: [] };
}

function findPosted(prisma: Prisma, input: PostMessageInput) {
  return prisma.message.findUnique({ where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } }, select: { id: true } });
}

type Recipients = Omit<PostMessageResult, "message" | "created" | "panelId">;

interface InsertedRow extends Recipients {
  claimed: ClaimedDispatch | null;
  authorName: string | null;
  /** The author's avatar, from the users row the function reads for their name. */
  authorImage: string | null;
  authorColor: string | null;
  tokens: number | null;
  seq: number | null;
  /** Set when the message was refused because its turns would pass a backlog limit. */
  backlog: "conversation" | "person" | null;
  /** Set when the conversation is archived, or the message replied to is not one of its messages; "saved_panel": nothing was written, a mention names a saved panel. */
  refused: "archived" | "reply_to" | "saved_panel" | null;
}

/** How many turns may wait (or run) at once: per conversation, and asked by one person anywhere. */
export interface BacklogLimits {
  perConversation: number;
  perPerson: number;
}

export const DEFAULT_BACKLOG: BacklogLimits = { perConversation: 20, perPerson: 10 };

function backlogRefusal(over: "conversation" | "person", limits: BacklogLimits): AppError {
  return over === "conversation"
    ? new AppError("rate_limited", `Agents already have ${limits.perConversation} questions waiting in this conversation. Wait for some answers, then send this again.`)
    : new AppError("rate_limited", `You already have ${limits.perPerson} questions waiting for agents. Wait for some answers, then send this again.`);
}

/**
 * One atomic call, the hot path of the product: `chorus_post_message` (migration
 * 20261122040000_post_message_function) checks the author takes part, takes a token from their
 * rate bucket, allocates the next seq, inserts the message, its mentions and dispatches, moves
 * read positions and returns who must be told; it refuses a message whose turns would pass the
 * backlog limits (migration 20261125030000). A database function, so that its plans are kept
 * instead of made again for every post. With `claim`, the same statement then claims one of the
 * dispatches it wrote (claim-dispatch.ts): the claim's own statement sees the post's rows, as a
 * database function's statements see what the ones before them wrote.
 */
async function insertMessage(
  prisma: Transaction,
  {
    userId,
    input,
    mentions,
    backlog,
    panel,
    unlessSavedPanel = false,
    claim,
  }: { userId: string; input: PostMessageInput; mentions: string[]; backlog: BacklogLimits; panel?: PanelPlan; unlessSavedPanel?: boolean; claim?: DispatchClaim },
): Promise<PostMessageResult | null> {
  const id = randomUUID();
  const now = new Date();
  const metadata = { ...userMessageMetadata(now), ...(panel ? { panelId: panel.id } : {}) };
  // Read before the statement: once it has claimed a turn, nothing after it may fail.
  const replyTo = input.replyToMessageId ? await quoteFor(prisma, input.replyToMessageId) : null;
  // chorus_post_unless_saved_panel (migration 20261201010000): the same, unless a mention names a saved panel.
  const post = raw(unlessSavedPanel ? `"chorus_post_unless_saved_panel"` : `"chorus_post_message"`);
  const claimed = claim
    ? sql`CASE WHEN cardinality(p."dispatchIds") > 0 THEN (SELECT row_to_json(c) FROM (${claimedDispatches(claim, sql`p."dispatchIds"`)}) c) END`
    : sql`NULL::json`;
  const [row] = await rawRows<InsertedRow>(prisma, sql`
    SELECT p.*, ${claimed} AS "claimed"
    FROM ${post}(${id}, ${input.conversationId}, ${input.clientId}, ${userId}, ${input.content},
      ${JSON.stringify(metadata)}::jsonb, ${countTokens(input.content)}::int, ${now}::timestamp(3), ${mentions}::text[],
      ${RATE_LIMIT}::float8, ${RATE_REFILL_PER_S}::float8, ${backlog.perConversation}::int, ${backlog.perPerson}::int, ${input.replyToMessageId ?? null}) p`);

  if (row?.refused === "saved_panel") return null;
  if (!row?.authorName) throw await refusalFor(prisma, input.conversationId);
  if (row.refused === "archived") throw new AppError("conflict", "This conversation is archived, so it is read-only. Unarchive it to post again.");
  if (row.refused === "reply_to") throw new AppError("bad_request", "The message you replied to is not in this conversation any more (it may have been deleted). Send it without the reply.");
  if (row.backlog) throw backlogRefusal(row.backlog, backlog);
  if (row.seq === null) {
    if (row.tokens !== null && row.tokens < 0) {
      throw new AppError("rate_limited", `You're sending messages too fast (at most ${RATE_LIMIT} in ${RATE_WINDOW_S} seconds). Wait a moment, then retry.`);
    }
    throw new AppError("not_found", "This conversation no longer exists.");
  }
  const message: MessageDto = {
    id,
    conversationId: input.conversationId,
    seq: row.seq,
    clientId: input.clientId,
    role: "user",
    content: input.content,
    metadata,
    author: { kind: "user", id: userId, name: row.authorName, ...avatarOf({ id: userId, image: row.authorImage, avatarColor: row.authorColor }) },
    createdAt: now.toISOString(),
    ...unchangedMessage,
    replyTo,
  };
  if (panel) await insertPanel(prisma, panel, { conversationId: input.conversationId, questionMessageId: id });
  const { participantUserIds, mentionedUserIds, mentionedAgentIds, unknownMentions, dispatchedAgentIds, dispatchIds } = row;
  return { message, created: true, participantUserIds, mentionedUserIds, mentionedAgentIds, unknownMentions, dispatchedAgentIds, dispatchIds, claimed: row.claimed, ...(panel ? { panelId: panel.id } : {}) };
}

async function existingMessage(prisma: Prisma, userId: string, input: PostMessageInput): Promise<MessageDto> {
  const row = await prisma.message.findUniqueOrThrow({
    where: { conversationId_clientId: { conversationId: input.conversationId, clientId: input.clientId } },
    include: messageInclude,
  });
  if (row.authorUserId !== userId) {
    throw new AppError("conflict", "This message id is already used by another message. Send it again as a new message.");
  }
  return toMessageDto(row);
}

/** Why a post was refused: forks are written by their specialist only; elsewhere, not a participant. */
async function refusalFor(prisma: Transaction, conversationId: string): Promise<AppError> {
  const conversation = await prisma.conversation.findUnique({ where: { id: conversationId }, select: { type: true } });
  return conversation?.type === "fork"
    ? new AppError("forbidden", "A forked context is the specialist's own workspace: nobody can post into it. Reply in the conversation it was forked from.")
    : new AppError("forbidden", "You are not a participant of this conversation.");
}

/** A reply's quote for the sender's copy (the posting function checked the message is in the conversation). */
async function quoteFor(prisma: Transaction, messageId: string): Promise<QuotedMessage | null> {
  const row = await prisma.message.findUnique({ where: { id: messageId }, select: messageInclude.replyTo.select });
  return row ? quoteOf(row) : null;
}
