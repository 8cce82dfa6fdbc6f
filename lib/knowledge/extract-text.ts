import { AppError } from "@/lib/errors/app-error";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_EXTENSIONS = [".md", ".txt", ".pdf"] as const;

export type MediaType = "text/markdown" | "text/plain" | "application/pdf";

const mediaTypes: Record<(typeof ACCEPTED_EXTENSIONS)[number], MediaType> = { ".md": "text/markdown", ".txt": "text/plain", ".pdf": "application/pdf" };

/**
 * The text of an uploaded file, or a bad_request that says why it cannot be used: not one of
 * the accepted kinds, empty, too large, binary pretending to be text, or a PDF that cannot be
 * read (or has no text layer).
 */
export async function extractText(name: string, bytes: Uint8Array): Promise<{ text: string; mediaType: MediaType }> {
  const extension = ACCEPTED_EXTENSIONS.find((candidate) => name.toLowerCase().endsWith(candidate));
  if (!extension) throw new AppError("bad_request", `${name}: only .md, .txt and .pdf files can be added to an agent's knowledge.`);
  if (bytes.length === 0) throw new AppError("bad_request", `${name} is empty.`);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; files can be at most 10 MB.`);
  const mediaType = mediaTypes[extension];
  const text = mediaType === "application/pdf" ? await pdfText(name, bytes) : plainText(name, bytes);
  if (text.trim().length === 0) throw new AppError("bad_request", `${name} contains no text${mediaType === "application/pdf" ? " (a scanned PDF without a text layer?)" : ""}.`);
  return { text, mediaType };
}

function plainText(name: string, bytes: Uint8Array): string {
  const sample = bytes.subarray(0, 8_192);
  const control = sample.filter((byte) => byte === 0 || (byte < 9) || (byte > 13 && byte < 32)).length;
  if (control > 0 && control / sample.length > 0.01) throw new AppError("bad_request", `${name} looks like a binary file, not text. Upload a .md, .txt or .pdf file.`);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes).replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  } catch {
    throw new AppError("bad_request", `${name} is not UTF-8 text. Save it as UTF-8 and upload it again.`);
  }
}

async function pdfText(name: string, bytes: Uint8Array): Promise<string> {
  if (!(bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)) {
    throw new AppError("bad_request", `${name} is not a PDF (it does not start with %PDF).`);
  }
  try {
    const { extractText: extract, getDocumentProxy } = await import("unpdf");
    const document = await getDocumentProxy(new Uint8Array(bytes));
    const { text } = await extract(document, { mergePages: false });
    return text.join("\n\n");
  } catch (error) {
    throw new AppError("bad_request", `${name} could not be read as a PDF (${error instanceof Error ? error.message : String(error)}).`);
  }
}
