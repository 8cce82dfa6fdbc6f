import type { SectionKind } from "@/lib/context/types";

/** Each section's name and colour, the same in the bar, its legend and the section list. */
export const sectionStyle: Record<SectionKind, { label: string; swatch: string }> = {
  system: { label: "System prompt", swatch: "bg-slate-500" },
  procedure: { label: "Procedure", swatch: "bg-amber-500" },
  knowledge: { label: "Knowledge", swatch: "bg-emerald-600" },
  episodes: { label: "Episodes", swatch: "bg-sky-500" },
  summary: { label: "Summary", swatch: "bg-fuchsia-500" },
  history: { label: "History", swatch: "bg-brand-500" },
  current: { label: "Current message", swatch: "bg-rose-500" },
};

/** The tool definitions' share of the budget: counted in every call, in no section. */
export const toolsStyle = { label: "Tools", swatch: "bg-orange-600" } as const;

export const reasonText: Record<string, string> = {
  pruned_fifo: "pruned by FIFO",
  summarized: "summarized",
  outside_sliding_window: "outside the sliding window",
  budget: "over budget",
  regex: "matched by pattern",
  embedding: "matched by meaning",
  truncated: "cut to the agent's limit",
  not_an_image_model: "the model does not accept images",
  no_text: "no text to read",
};

/** How a file reached the model. */
export const attachmentAsText = { text: "read as text", image: "seen as an image", note: "named only" } as const;

/** Where an item came from, in words: a tool result names its tool ("tool:notes__search" → "result of notes__search"). */
export function sourceText(source: string): string {
  return source.startsWith("tool:") ? `result of ${source.slice("tool:".length)}` : `from ${source}`;
}
