import { z } from "zod";
import { handoffModes } from "@/lib/handoffs/handoff-modes";

export const approvalStates = ["none", "pending", "approved", "denied", "expired"] as const;

/** One call a model asked for in a tool step, and where its approval stands. */
const stepCallSchema = z.object({
  /** The model's id for the call, which its result names. */
  id: z.string(),
  /** As the model called it (`server__tool`). */
  name: z.string(),
  server: z.string(),
  tool: z.string(),
  /** The model's JSON, as it gave it. */
  arguments: z.string(),
  askFirst: z.boolean(),
  approval: z.enum(approvalStates),
  approvalId: z.string().optional(),
  /** Who approved or denied, and why they said they denied. */
  decidedBy: z.string().optional(),
  reason: z.string().optional(),
});

export type StepCallMetadata = z.infer<typeof stepCallSchema>;

/**
 * A knowledge chunk a reply's context included: `[n]` in its text cites the n-th. Stored with its
 * snippet; a reader is given `removed` instead once its document is deleted or replaced
 * (lib/conversations/source-states).
 */
export const replySourceSchema = z.object({
  chunkId: z.string(),
  documentId: z.string(),
  /** The document's name when the reply was written. */
  document: z.string(),
  /** The chunk's place in its document. */
  ordinal: z.number().int(),
  /** The start of the chunk's text. */
  snippet: z.string().optional(),
  removed: z.literal(true).optional(),
});

export type ReplySource = z.infer<typeof replySourceSchema>;

/**
 * What each message says about where it came from (seed 000's MessageMetadata). Kept as
 * structured fields so a handoff summary or a tool result is never flattened into text that
 * the next model would imitate.
 */
export const messageMetadataSchema = z.object({
  agentId: z.string().optional(),
  agentDisplayName: z.string().optional(),
  isHandoffSummary: z.boolean().default(false),
  isToolResult: z.boolean().default(false),
  toolName: z.string().optional(),
  /** A tool result: the call it answers. */
  toolCallId: z.string().optional(),
  /**
   * A tool step (an agent's message whose text, possibly empty, came with tool calls): the calls,
   * what the model call that asked for them sent, and when the turn's first attempt started.
   */
  toolStep: z
    .object({
      calls: z.array(stepCallSchema),
      usedTokens: z.number(),
      turnStartedAt: z.string(),
      /** The person whose message started the turn: they (or an admin) decide its ask-first calls. */
      askedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
    })
    .optional(),
  /** A tool result: its call, as the thread shows it (the content is the result as given to the model). */
  toolResult: z
    .object({
      server: z.string(),
      tool: z.string(),
      arguments: z.string(),
      approval: z.enum(approvalStates),
      decidedBy: z.string().optional(),
      startedAt: z.string(),
      ms: z.number(),
      /** Tokens of the content, as counted for the model the turn called. */
      resultTokens: z.number(),
      cut: z.boolean(),
      /** What went wrong (the tool's error, a timeout, a refusal); the content says it to the model. */
      error: z.string().optional(),
    })
    .optional(),
  timestamp: z.string(),
  // Agent replies: what produced them, at what cost.
  dispatchId: z.string().optional(),
  /** The message an agent reply answers. */
  replyToMessageId: z.string().optional(),
  model: z.string().optional(),
  provider: z.enum(["openai", "offline"]).optional(),
  usage: z.object({ inputTokens: z.number(), outputTokens: z.number() }).optional(),
  latencyMs: z.number().optional(),
  /** The person pressed Stop: the text is what had arrived. */
  stopped: z.boolean().optional(),
  /** The agent could not answer; the content says why. */
  error: z.string().optional(),
  /** The knowledge its context included, numbered as the model saw it. */
  sources: z.array(replySourceSchema).optional(),
  /**
   * A handoff: the orchestrator's message (its content is the handoff summary) naming the
   * specialist and the sharing mode; a refused one carries `error: "handoff_refused"`.
   */
  handoff: z
    .object({
      toAgentId: z.string().nullable(),
      toHandle: z.string(),
      toDisplayName: z.string().nullable(),
      mode: z.enum(handoffModes),
      reason: z.string(),
      /** fork mode: the forked conversation. */
      forkId: z.string().optional(),
    })
    .optional(),
  /** A forked context's result, merged into the conversation it was forked from. */
  source: z.literal("specialist").optional(),
  forkId: z.string().optional(),
  /** A question put to a panel: the panel answering it. */
  panelId: z.string().optional(),
  /** A panel's final answer: how the panel ended, every current answer with its votes, and every vote. */
  panel: z
    .object({
      panelId: z.string(),
      endedReason: z.enum(["all_voted", "max_rounds", "time", "tokens", "failed", "error"]),
      winnerAnswerId: z.string().nullable(),
      tokensUsed: z.number(),
      answers: z.array(z.object({ id: z.string(), agentId: z.string(), votes: z.number() })),
      votes: z.array(z.object({ voterAgentId: z.string(), answerId: z.string(), reason: z.string(), valid: z.boolean() })),
    })
    .optional(),
  /** In a fork: the message of the parent conversation this one copies. */
  copiedFrom: z.object({ messageId: z.string(), seq: z.number() }).optional(),
});

export type MessageMetadata = z.infer<typeof messageMetadataSchema>;

export function userMessageMetadata(at: Date): MessageMetadata {
  return { isHandoffSummary: false, isToolResult: false, timestamp: at.toISOString() };
}

export type ToolStepMetadata = NonNullable<MessageMetadata["toolStep"]>;
export type ToolResultMetadata = NonNullable<MessageMetadata["toolResult"]>;
