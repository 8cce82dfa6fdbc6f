import type { RetrievedEpisode, RetrievedKnowledge, RetrievedProcedure } from "./types";

/** The system messages that carry retrieved memory and the summary, in the words the model reads. */
export function procedureText(procedure: RetrievedProcedure): string {
  return [`Matched procedure: ${procedure.name}`, ...procedure.steps.map((step, index) => `Step ${index + 1}: ${step}`)].join("\n");
}

export function knowledgeText(items: RetrievedKnowledge[]): string {
  return ["Retrieved knowledge:", ...items.map((item) => `Source: ${item.source}\n${item.content}`)].join("\n\n");
}

export function episodesText(items: RetrievedEpisode[]): string {
  return ["Past conversation snippets:", ...items.map((item) => `${item.occurredAt.slice(0, 10)}: ${item.content}`)].join("\n");
}

export function summaryText(summary: string): string {
  return `[Earlier conversation summary]: ${summary}`;
}

/** OpenAI's `name` allows letters, digits, _ and -, at most 64 characters. */
export function speakerName(handle: string): string {
  return handle.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}
