import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { kindOf, type AttachmentKind } from "./attachment-kind";
import { attachmentNotFound, visibleAttachment } from "./read-attachment";

/** Most characters a preview receives: a browser lays out 200,000 characters quickly; the file itself holds the rest. */
export const PREVIEW_MAX_CHARS = 200_000;

/** GET /api/attachments/{id}/text: what a preview shows of a text file or a PDF. */
export interface AttachmentTextDto {
  name: string;
  mediaType: string;
  kind: AttachmentKind;
  /** The start of the kept text when it is longer than the preview's limit. */
  text: string;
  /** The text goes on past `text`: download the file for all of it. */
  truncated: boolean;
  /** How long the kept text is, in characters (UTF-16 code units, as `text.length` counts them). */
  totalChars: number;
}

/**
 * The text kept for a file (a text file's, a PDF's text layer), for those who may see the file;
 * anyone else is told it does not exist. A file with no text (an image, a scanned PDF) is refused
 * with what to do instead.
 */
export async function readAttachmentText(prisma: Prisma, { userId, attachmentId, maxChars = PREVIEW_MAX_CHARS }: { userId: string; attachmentId: string; maxChars?: number }): Promise<AttachmentTextDto> {
  const attachment = await prisma.attachment.findFirst({ where: visibleAttachment(userId, attachmentId), select: { name: true, mediaType: true, text: true } });
  if (!attachment) throw attachmentNotFound();
  const { name, mediaType, text } = attachment;
  const kind = kindOf(mediaType);
  if (text === null) throw new AppError("not_found", noTextReason(name, kind));
  const shown = cutAt(text, maxChars);
  return { name, mediaType, kind, text: shown, truncated: shown.length < text.length, totalChars: text.length };
}

function noTextReason(name: string, kind: AttachmentKind): string {
  if (kind === "pdf") return `${name} has no text to preview: it has no text layer (a scanned PDF?). Download it to read it.`;
  return `${name} has no text to preview: only text files and PDFs have one. Download it to open it.`;
}

/** The first `max` characters, never half of a surrogate pair (an emoji cut in two shows as �). */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}
