import { pdfText } from "@/lib/knowledge/extract-text";
import type { AttachmentLimits } from "./attachment-limits";
import type { SniffedFile } from "./sniff-file";

/**
 * What an agent may read of a file, its first `keptChars` characters (a long log is still worth
 * attaching): a text file's text (decoded when it was sniffed), a PDF's text layer (a PDF that
 * cannot be read is refused with the reason, an encrypted one too, or one past the read limits),
 * nothing for other kinds or a PDF without a text layer (a scan).
 */
export async function attachmentText(name: string, bytes: Uint8Array, { kind, text }: SniffedFile, { read, keptChars }: Pick<AttachmentLimits, "read" | "keptChars">): Promise<string | null> {
  if (kind === "text") return text;
  if (kind !== "pdf") return null;
  const layer = await pdfText(name, bytes, read);
  return layer.trim().length > 0 ? layer.slice(0, keptChars) : null;
}
