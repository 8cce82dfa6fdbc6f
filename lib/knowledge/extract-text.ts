import type { Env } from "@/lib/config/env";
import { AppError } from "@/lib/errors/app-error";
import { readPdfText, type PdfRead, type ReadLimits } from "./read-pdf-text";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
export const ACCEPTED_EXTENSIONS = [".md", ".txt", ".pdf"] as const;

export type MediaType = "text/markdown" | "text/plain" | "application/pdf";

const mediaTypes: Record<(typeof ACCEPTED_EXTENSIONS)[number], MediaType> = { ".md": "text/markdown", ".txt": "text/plain", ".pdf": "application/pdf" };

/** The caps and read limits this node is configured with. */
export function extractionLimits(env: Pick<Env, "KNOWLEDGE_MAX_CHARS" | "KNOWLEDGE_MAX_PAGES" | "KNOWLEDGE_READ_TIMEOUT_MS" | "KNOWLEDGE_READ_MEMORY_MB">): ReadLimits {
  return { maxChars: env.KNOWLEDGE_MAX_CHARS, maxPages: env.KNOWLEDGE_MAX_PAGES, timeoutMs: env.KNOWLEDGE_READ_TIMEOUT_MS, memoryMb: env.KNOWLEDGE_READ_MEMORY_MB };
}

const count = (value: number) => value.toLocaleString("en-US");

/**
 * The text of an uploaded file, or an error that says why it cannot be used: not one of the
 * accepted kinds, empty, too large, binary pretending to be text, more text or pages than the
 * caps allow, or a PDF that cannot be read (damaged, too slow or too big to read, no text layer).
 */
export async function extractText(name: string, bytes: Uint8Array, limits: ReadLimits): Promise<{ text: string; mediaType: MediaType }> {
  const extension = ACCEPTED_EXTENSIONS.find((candidate) => name.toLowerCase().endsWith(candidate));
  if (!extension) throw new AppError("bad_request", `${name}: only .md, .txt and .pdf files can be added to an agent's knowledge.`);
  if (bytes.length === 0) throw new AppError("bad_request", `${name} is empty.`);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `${name} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; files can be at most 10 MB.`);
  const mediaType = mediaTypes[extension];
  const text = mediaType === "application/pdf" ? await pdfText(name, bytes, limits) : plainText(name, bytes, limits);
  if (text.trim().length === 0) throw new AppError("bad_request", `${name} contains no text${mediaType === "application/pdf" ? " (a scanned PDF without a text layer?)" : ""}.`);
  return { text, mediaType };
}

function tooMuchText(name: string, { maxChars }: ReadLimits): AppError {
  return new AppError("payload_too_large", `${name} has more than ${count(maxChars)} characters of text; split it and upload the parts.`);
}

// Decoded on the event loop: 10 MB of UTF-8 takes about 25 ms, where a worker takes 250 ms to start.
function plainText(name: string, bytes: Uint8Array, limits: ReadLimits): string {
  const sample = bytes.subarray(0, 8_192);
  const control = sample.filter((byte) => byte === 0 || (byte < 9) || (byte > 13 && byte < 32)).length;
  if (control > 0 && control / sample.length > 0.01) throw new AppError("bad_request", `${name} looks like a binary file, not text. Upload a .md, .txt or .pdf file.`);
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AppError("bad_request", `${name} is not UTF-8 text. Save it as UTF-8 and upload it again.`);
  }
  // Normalising line endings shrinks the text by at most half: past twice the cap it would be
  // 60 ms of the event loop spent on a file that is refused anyway.
  if (decoded.length > 2 * limits.maxChars) throw tooMuchText(name, limits);
  const text = decoded.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (text.length > limits.maxChars) throw tooMuchText(name, limits);
  return text;
}

/** The text layer of a PDF, or the reason it cannot be read (not a PDF, encrypted, damaged, over a limit). */
export async function pdfText(name: string, bytes: Uint8Array, limits: ReadLimits): Promise<string> {
  if (!(bytes[0] === 0x25 && bytes[1] === 0x50 && bytes[2] === 0x44 && bytes[3] === 0x46)) {
    throw new AppError("bad_request", `${name} is not a PDF (it does not start with %PDF).`);
  }
  const read = await readPdfText(bytes, limits);
  if (read.kind === "text") return read.text;
  throw refusal(name, read, limits);
}

function refusal(name: string, read: Exclude<PdfRead, { kind: "text" }>, limits: ReadLimits): AppError {
  switch (read.kind) {
    case "too_many_pages":
      return new AppError("payload_too_large", `${name} has more than ${count(limits.maxPages)} pages (${count(read.pages)}); split it and upload the parts.`);
    case "too_many_chars":
      return tooMuchText(name, limits);
    case "timed_out": {
      const seconds = limits.timeoutMs / 1000;
      return new AppError("bad_request", `${name} took too long to read (over ${count(seconds)} second${seconds === 1 ? "" : "s"}). It may be damaged: save it again as PDF, or upload its text as a .txt file.`);
    }
    case "out_of_memory":
      return new AppError("payload_too_large", `${name} is too large to read (it needs more than ${count(limits.memoryMb)} MB of memory). Split it, or upload its text as a .txt file.`);
    case "unreadable":
      // pdf.js's PasswordException: "No password given".
      if (/password/i.test(read.reason)) return new AppError("bad_request", `${name} is protected by a password. Save a copy without one and upload that.`);
      return new AppError("bad_request", `${name} could not be read as a PDF (${read.reason}).`);
  }
}
