import { IMAGE_PART_TOKENS, type TokenCounter } from "@/lib/llm/token-counter";
import type { ContentPart } from "@/lib/llm/types";
import type { MessageCosts } from "./message-costs";
import { escapeFrameAttribute, escapeFrameText } from "./section-text";
import type { AttachmentItem, AttachmentNoteReason, ContextConfig, MessageAttachment } from "./types";

/** How one file enters its message: a frame of its text, an image part, or a note that it was not read. */
type Note = { as: "note"; appended: string; reason: AttachmentNoteReason };
type Form = { as: "text"; appended: string; cut: boolean } | { as: "image"; part: ContentPart } | Note;

/**
 * A message's files as one turn sends them (../shared/design/context.md, "Attachments"): text
 * files and PDFs framed and cut to the agent's limit, images as low-detail parts for a model that
 * accepts them, anything else a note saying why it was not read. The budget can turn them into
 * notes, all at once; a note keeps the reason it first had.
 */
export class MessageFiles {
  private readonly forms: Form[];

  constructor(
    private readonly attachments: MessageAttachment[],
    config: Pick<ContextConfig, "acceptsImages" | "maxAttachmentTokens">,
    counter: TokenCounter,
  ) {
    this.forms = attachments.map((file): Form => {
      if (file.image) return config.acceptsImages ? { as: "image", part: imagePart(file.id) } : note(file, "not_an_image_model");
      if (!file.text) return note(file, "no_text");
      return frame(file, file.text, config.maxAttachmentTokens, counter);
    });
  }

  /** Some file is still read (framed or shown), so turning them into notes frees tokens. */
  get read(): boolean {
    return this.forms.some((form) => form.as !== "note");
  }

  /** Every file not yet a note becomes one, for this reason. */
  toNotes(reason: AttachmentNoteReason): void {
    this.forms.forEach((form, index) => {
      if (form.as !== "note") this.forms[index] = note(this.attachments[index]!, reason);
    });
  }

  /** The message's content: its text with frames and notes, then (when it shows images) its image parts. */
  content(text: string): string | ContentPart[] {
    const full = text + this.forms.map((form) => (form.as === "image" ? "" : form.appended)).join("");
    const images = this.forms.flatMap((form) => (form.as === "image" ? [form.part] : []));
    return images.length === 0 ? full : [{ type: "text", text: full }, ...images];
  }

  /** What the Summarize call receives: every file as a note, a read one saying it was summarized. */
  summarized(text: string): string {
    const notes = this.forms.map((form, index) => (form.as === "note" ? form : note(this.attachments[index]!, "summarized")));
    return text + notes.map((form) => form.appended).join("");
  }

  /** The snapshot's entries: a message left out takes its files with it, with its reason. */
  items(costs: MessageCosts, messageReason: string | undefined): AttachmentItem[] {
    return this.attachments.map((file, index): AttachmentItem => {
      const form = this.forms[index]!;
      const base = { id: file.id, name: file.name, mediaType: file.mediaType, bytes: file.bytes, as: form.as };
      const tokens = form.as === "image" ? IMAGE_PART_TOKENS : costs.content(form.appended);
      if (messageReason !== undefined) return { ...base, tokens, included: false, reason: messageReason };
      if (form.as === "note") return { ...base, tokens, included: false, reason: form.reason };
      return { ...base, tokens, included: true, ...(form.as === "text" && form.cut ? { reason: "truncated" } : {}) };
    });
  }
}

/** Stored in the snapshot as `attachment:ID`; the provider sends the file's bytes in its place. */
export const ATTACHMENT_URL_PREFIX = "attachment:";

function imagePart(id: string): ContentPart {
  return { type: "image_url", image_url: { url: `${ATTACHMENT_URL_PREFIX}${id}`, detail: "low" } };
}

function note(file: MessageAttachment, reason: AttachmentNoteReason): Note {
  return { as: "note", reason, appended: `\n\n[attachment: ${escapeFrameAttribute(file.name)} (${escapeFrameAttribute(file.mediaType)}, ${file.bytes} bytes) — not read: ${reason}]` };
}

function frame(file: MessageAttachment, text: string, maxTokens: number, counter: TokenCounter): Form {
  const { text: kept, tokens } = cutText(file.id, text, maxTokens, counter);
  const cut = tokens > maxTokens;
  const body = cut ? `${kept}\n[… ${tokens - maxTokens} more tokens cut]` : text;
  return { as: "text", cut, appended: `\n\n<attachment name="${escapeFrameAttribute(file.name)}" type="${escapeFrameAttribute(file.mediaType)}">\n${escapeFrameText(body)}\n</attachment>` };
}

/**
 * A file's text never changes once stored: its cut for an encoding and a limit is kept, so a long
 * PDF in a busy room is tokenised once, not at every turn.
 */
const cuts = new Map<string, { text: string; tokens: number }>();
const MAX_CACHED_CUTS = 500;

function cutText(id: string, text: string, maxTokens: number, counter: TokenCounter): { text: string; tokens: number } {
  const key = `${id}:${counter.encoding}:${maxTokens}`;
  let cut = cuts.get(key);
  if (!cut) {
    cut = counter.first(text, maxTokens);
    if (cuts.size >= MAX_CACHED_CUTS) cuts.delete(cuts.keys().next().value!);
    cuts.set(key, cut);
  }
  return cut;
}
