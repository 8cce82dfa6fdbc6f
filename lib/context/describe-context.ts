import type { AttachmentItem, ContextSnapshot, SnapshotSection } from "./types";

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

const reasons: Record<string, string> = {
  pruned_fifo: "pruned by FIFO",
  summarized: "summarized",
  outside_sliding_window: "outside the sliding window",
  budget: "dropped for the budget",
};

function describeSection(section: SnapshotSection): string | null {
  const kept = section.items.filter((item) => item.included);
  const tokens = `${section.tokens} tokens`;
  switch (section.kind) {
    case "system":
      return `system prompt (${tokens})`;
    case "current": {
      const files = section.items[0]?.attachments ?? [];
      return `current message (${tokens})${files.length > 0 ? ` with ${plural(files.length, "attachment")}: ${files.map(describeFile).join(", ")}` : ""}`;
    }
    case "summary":
      return kept.length > 0 ? `summary of ${kept[0]!.source} (${tokens})` : null;
    case "history": {
      if (section.items.length === 0) return null;
      const left = new Map<string, number>();
      for (const item of section.items) if (!item.included && item.reason) left.set(item.reason, (left.get(item.reason) ?? 0) + 1);
      const why = [...left].map(([reason, count]) => `${count} ${reasons[reason] ?? reason}`).join(", ");
      return `history: ${kept.length} of ${plural(section.items.length, "message")}${why ? ` (${why})` : ""} (${tokens})`;
    }
    default:
      return kept.length > 0 ? `${section.kind}: ${plural(kept.length, "item")} (${tokens})` : null;
  }
}

/** How a file reached the model: `notes.txt (read as text, cut)`, `photo.png (not read: not_an_image_model)`. */
function describeFile(file: AttachmentItem): string {
  if (!file.included) return `${file.name} (not read: ${file.reason ?? "budget"})`;
  if (file.as === "image") return `${file.name} (seen as an image)`;
  return `${file.name} (read as text${file.reason === "truncated" ? ", cut" : ""})`;
}

/**
 * The snapshot in one sentence: what each section contributed and the budget used. The offline
 * model says it in its replies, so a demo without a key shows the machinery at work.
 */
export function describeContext(snapshot: Pick<ContextSnapshot, "sections" | "budget" | "strategy">): string {
  const parts = snapshot.sections.map(describeSection).filter((part): part is string => part !== null);
  return `${parts.join(", ")}; ${snapshot.budget.usedTokens.toLocaleString("en")} of ${snapshot.budget.maxTokens.toLocaleString("en")} tokens used (${snapshot.strategy.replace("_", " ")} pruning).`;
}
