import type { LoopMessage, StepMessage } from "@/lib/llm/types";

/** The settings of an agent that shape its context (see lib/agents/agent-settings.ts). */
export interface ContextConfig {
  maxWorkingMemoryTokens: number;
  /** Messages the agent sees, the current one included. */
  historyWindow: number;
  pruningStrategy: "fifo" | "summarize" | "sliding_window";
  minHistoryMessages: number;
  slidingWindowTurns: number;
  summarizeFraction: number;
  /** The model is shown images (as low-detail image parts); otherwise an image is a note. */
  acceptsImages: boolean;
  /** A file's text beyond this many tokens is cut. */
  maxAttachmentTokens: number;
}

/** A message of the conversation as stored: the core decides how the agent sees it. */
export interface ConversationMessage {
  id: string;
  seq: number;
  role: "user" | "assistant" | "system" | "tool";
  content: string;
  authorAgentId: string | null;
  /** The person's or agent's @handle. */
  authorHandle: string | null;
  /** The stored count and the encoding it was counted with; reused only for the same encoding. */
  tokens: { count: number; encoding: string } | null;
  /** Handoff summaries and tool results say so in the inspector. */
  kind?: "handoff_summary" | "tool_result";
  toolName?: string;
  /** Files sent with the message, in the order attached. */
  attachments?: MessageAttachment[];
  /** The agent's own reply: the tool steps that led to it, as they were sent (they come and go with it). */
  steps?: StepSource[];
}

/** One stored message of a turn's tool steps. */
export interface StepSource {
  id: string;
  seq: number;
  message: StepMessage;
  /** A result's tool, as the model called it. */
  toolName?: string;
}

/** A file as a turn may read it. */
export interface MessageAttachment {
  id: string;
  name: string;
  /** Sniffed from the bytes. */
  mediaType: string;
  bytes: number;
  /** The text of a text-like file or a PDF; null when it has none. */
  text: string | null;
  /** An image a model can be shown (PNG, JPEG, GIF, WebP). */
  image: boolean;
}

export interface RetrievedProcedure {
  id: string;
  name: string;
  steps: string[];
  score: number;
  matchedBy: "regex" | "embedding";
}

export interface RetrievedKnowledge {
  id: string;
  content: string;
  /** The source document's name. */
  source: string;
  /** The document and the chunk's place in it, so a reply can point to its sources. */
  documentId: string;
  ordinal: number;
  /** Hybrid retrieval: the fused score (reciprocal rank fusion); vector retrieval: the cosine similarity. */
  score: number;
  /**
   * The chunk's place in the vector ranking and in the full-text ranking (1 = first); null when
   * that ranking did not find it. Hybrid retrieval sets both; vector retrieval sets vectorRank
   * alone (no text ranking was run). lib/memory/knowledge-search.ts
   */
  vectorRank?: number | null;
  textRank?: number | null;
}

export interface RetrievedEpisode {
  id: string;
  content: string;
  /** When it happened (ISO date), shown to the model. */
  occurredAt: string;
  score: number;
}

export interface Retrieved {
  procedure: RetrievedProcedure | null;
  knowledge: RetrievedKnowledge[];
  episodes: RetrievedEpisode[];
}

export const noRetrieval: Retrieved = { procedure: null, knowledge: [], episodes: [] };

/** What Summarize asks for: these oldest history messages, condensed. */
export interface SummaryRequest {
  messages: ConversationMessage[];
}

/** A summary and the range of seqs it covers (a cached one may reach further back). */
export interface SummaryResult {
  text: string;
  fromSeq: number;
  toSeq: number;
}

export type Summarize = (request: SummaryRequest) => Promise<SummaryResult>;

export interface RetrievalTiming {
  /** Milliseconds since the turn's first step started. */
  startedAt: number;
  ms: number;
}

export type SectionKind = "system" | "procedure" | "knowledge" | "episodes" | "summary" | "history" | "current";
export const SECTION_ORDER: readonly SectionKind[] = ["system", "procedure", "knowledge", "episodes", "summary", "history", "current"];

export type ExclusionReason = "pruned_fifo" | "summarized" | "outside_sliding_window" | "budget";

export interface SnapshotItem {
  id: string;
  tokens: number;
  included: boolean;
  reason?: string;
  score?: number;
  seq?: number;
  source?: string;
  /** An earlier tool step: an assistant message with calls, or a tool result (with its tool). */
  role?: "assistant" | "tool";
  toolName?: string;
  /** A message's files: how each was sent, what it added and whether it was read. */
  attachments?: AttachmentItem[];
  /** A knowledge item's ranks (RetrievedKnowledge): its score is then the fused one in hybrid retrieval. */
  vectorRank?: number | null;
  textRank?: number | null;
}

/** Why a file was not read: `summarized` for one whose message went into the summary. */
export type AttachmentNoteReason = "not_an_image_model" | "no_text" | "budget" | "summarized";

export interface AttachmentItem {
  id: string;
  name: string;
  mediaType: string;
  bytes: number;
  as: "text" | "image" | "note";
  /** What it adds to its message: its frame or note (leading blank line included), or 85 for an image part. */
  tokens: number;
  included: boolean;
  /** A note's reason; `truncated` for a cut file; the message's reason when the message was left out. */
  reason?: string;
}

/** A tool the turn may offer the model: an MCP server's, or Chorus's own (`server: "chorus"`). */
export interface OfferedTool {
  /** As sent to the model. */
  name: string;
  /** The MCP server's name as registered, or `chorus`. */
  server: string;
  /** A person approves each call before it runs. */
  askFirst: boolean;
  description: string;
  /** JSON Schema of the arguments. */
  parameters: Record<string, unknown>;
}

/** A tool in the snapshot: what its definition costs and whether it was offered. */
export interface ToolItem {
  name: string;
  server: string;
  askFirst: boolean;
  /** tokens(compact JSON of {name, description, parameters}). */
  tokens: number;
  included: boolean;
  /** `budget` when system + tools + current did not fit. */
  reason?: "budget";
}

/** One call the model asked for in this turn, and what came of it. */
export interface StepRecord {
  callId: string;
  tool: string;
  server: string;
  /** The model's JSON, as it gave it. */
  arguments: string;
  approval: "none" | "approved" | "denied" | "expired";
  /** Who approved or denied (absent when no one decided). */
  decidedBy?: string;
  /** Tokens of the result as given to the model (after the cut). */
  resultTokens: number;
  cut: boolean;
  error?: string;
  /** Milliseconds since the turn's first step started. */
  startedAt: number;
  ms: number;
}

/** One model call of the turn: what it sent (never above maxTokens), or `usedTokens: 0, error: "budget"` when it could not be made. */
export interface CallRecord {
  usedTokens: number;
  error?: "budget";
}

export interface SnapshotSection {
  kind: SectionKind;
  tokens: number;
  items: SnapshotItem[];
}

/** The inspector's JSON (docs: ../shared/design/context.md, "The snapshot"). */
export interface ContextSnapshot {
  turnId: string;
  conversationId: string;
  answeringMessageId: string;
  replyMessageId: string | null;
  agent: { id: string; handle: string; model: string };
  mode: "direct" | "summary" | "recent" | "full" | "fork" | "panel";
  strategy: ContextConfig["pruningStrategy"];
  budget: { maxTokens: number; usedTokens: number };
  sections: SnapshotSection[];
  messages: LoopMessage[];
  retrieval: { episodic: RetrievalTiming; semantic: RetrievalTiming; procedural: RetrievalTiming };
  assemblyMs: number;
  /** The tools offered, each counted in usedTokens and in no section (absent in snapshots older than tools). */
  tools?: ToolItem[];
  /** MCP servers whose tools the turn could not offer, and why (absent when none). */
  toolsUnavailable?: { server: string; reason: string }[];
  /** The calls this turn's model asked for, in order (absent when it made none). */
  steps?: StepRecord[];
  /** Every model call of the turn; `[]` for a turn that failed at budget step 5 (absent in older snapshots). */
  calls?: CallRecord[];
  /** Only when the turn could not be assembled: "budget" (system prompt and current message alone overflow). */
  error?: "budget";
  /**
   * Orchestrators only: handoffs already made for the message, the limit, the specialists it was
   * offered, and `stopped: "depth"` when the limit made it answer itself.
   */
  handoff?: {
    depth: number;
    maxDepth: number;
    specialists: string[];
    stopped?: "depth";
    /**
     * The offline model routes by the orchestrator's rules: the rule that matched (1-based, its
     * pattern and the specialist it names, null when that one is gone), or null when none did.
     * Absent when rules were not consulted (a real model decides by tool call).
     */
    rule?: { index: number; pattern: string; to: string | null } | null;
  };
  /** Panel turns: which panel and round, and how many answers and votes the agent was shown. */
  panel?: { panelId: string; round: number; maxRounds: number; answers: number; votes: number };
}
