import { pdfText } from "@/lib/knowledge/extract-text";
import type { ReadLimits } from "@/lib/knowledge/read-pdf-text";
import type { AttachmentKind } from "./attachment-kind";

/**
 * What an agent may read of a file: a text file's text (its first `limits.maxChars` characters: an
 * agent reads far less, and a long log is still worth attaching), a PDF's text layer (a PDF that
 * cannot be read is refused with the reason, an encrypted one too), nothing for other kinds or a
 * PDF without a text layer (a scan).
 */
export async function attachmentText(name: string, bytes: Uint8Array, kind: AttachmentKind, limits: ReadLimits): Promise<string | null> {
  if (kind === "text") {
    // The bytes were checked to be UTF-8 when the file was sniffed.
    const text = new TextDecoder().decode(bytes.subarray(0, limits.maxChars * 4)).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
    return text.slice(0, limits.maxChars);
  }
  if (kind !== "pdf") return null;
  const text = await pdfText(name, bytes, limits);
  return text.trim().length > 0 ? text : null;
}
