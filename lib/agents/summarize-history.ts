import { summaryText } from "@/lib/context/section-text";
import { SUMMARY_INSTRUCTION } from "@/lib/llm/instructions";
import type { ConversationMessage, Summarize } from "@/lib/context/types";
import type { Prisma } from "@/lib/db/open-database";
import type { Lease } from "@/lib/jobs/lease";
import type { LlmProvider } from "@/lib/llm/types";

export interface SummarizerOptions {
  prisma: Prisma;
  provider: LlmProvider;
  model: string;
  agentId: string;
  conversationId: string;
  /** The summary's `max_tokens` (the agent's summary max tokens, default 300). */
  maxTokens: number;
  signal?: AbortSignal;
  /** The turn's lease: a turn that lost it does not write the cache. */
  lease?: Pick<Lease, "assertHeld">;
}

/** A message as a summary prompt lists it: `handle: text`. */
export const labelMessage = (message: ConversationMessage) => `${message.authorHandle ?? message.role}: ${message.content}`;

/**
 * The Summarize pruner's secondary LLM call, with a cache per conversation and agent. A summary
 * that already covers the messages is reused as is; one that ends where they begin is extended
 * with only the newly pruned messages (the previous summary plus those), never redone from
 * scratch; anything else starts a new summary.
 */
export function createSummarizer(options: SummarizerOptions): Summarize {
  const { prisma, agentId, conversationId } = options;
  return async ({ messages }) => {
    const first = messages[0]!.seq;
    const last = messages.at(-1)!.seq;
    const cached = await prisma.conversationSummary.findUnique({ where: { conversationId_agentId: { conversationId, agentId } } });
    if (cached && cached.fromSeq <= first && cached.toSeq >= last) return { text: cached.text, fromSeq: cached.fromSeq, toSeq: cached.toSeq };

    const extending = cached !== null && cached.fromSeq <= first && cached.toSeq >= first - 1;
    const fresh = extending ? messages.filter((message) => message.seq > cached.toSeq) : messages;
    const prompt = [SUMMARY_INSTRUCTION, ...(extending ? [summaryText(cached.text)] : []), ...fresh.map(labelMessage)].join("\n");
    const text = await completeText(options, prompt);
    const fromSeq = extending ? cached.fromSeq : first;
    options.lease?.assertHeld();
    await prisma.conversationSummary.upsert({
      where: { conversationId_agentId: { conversationId, agentId } },
      create: { conversationId, agentId, fromSeq, toSeq: last, text },
      update: { fromSeq, toSeq: last, text },
    });
    return { text, fromSeq, toSeq: last };
  };
}

/** A whole answer to one prompt, for Chorus's own requests (summaries); empty is an error. */
export async function completeText({ provider, model, maxTokens, signal }: Pick<SummarizerOptions, "provider" | "model" | "maxTokens" | "signal">, prompt: string): Promise<string> {
  let text = "";
  for await (const event of provider.stream({ model, messages: [{ role: "user", content: prompt }], temperature: 0, maxOutputTokens: maxTokens, signal })) {
    if (event.type === "delta") text += event.text;
  }
  if (text.trim() === "") throw new Error("the summary came back empty");
  return text.trim();
}
