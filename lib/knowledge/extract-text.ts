import { isUtf8 } from "node:buffer";
import { fileTypeFromBuffer } from "file-type";
import { decodeText, fewControlCharacters } from "@/lib/attachments/decode-text";
import type { Env } from "@/lib/config/env";
import { AppError } from "@/lib/errors/app-error";
import { ACCEPTED_IN_WORDS, DOCX_MEDIA_TYPE as DOCX, formatOf, type Reader } from "./knowledge-formats";
import { readInWorker, type ReadLimits, type WorkerKind, type WorkerRead } from "./read-in-worker";
import { readZipDirectory } from "./zip-directory";

export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

const MB = 1024 * 1024;
/**
 * A .docx is a zip archive, inflated by mammoth in the worker; its central directory is measured
 * first, so a zip bomb is refused before anything is inflated. A real Word document holds tens of
 * parts, unpacks to a few times its size (text XML to about 10–20 times), and never to 200 MB. An
 * archive that lies about its sizes still meets the worker's memory limit.
 */
export const DOCX_LIMITS = { maxEntries: 5_000, maxUnpackedBytes: 200 * MB, maxRatio: 100, ratioFromBytes: 1 * MB };

// The first bytes of an OLE compound file: Word saves an encrypted .docx in one (and a .doc is one).
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/** The caps and read limits this node is configured with. */
export function extractionLimits(env: Pick<Env, "KNOWLEDGE_MAX_CHARS" | "KNOWLEDGE_MAX_PAGES" | "KNOWLEDGE_READ_TIMEOUT_MS" | "KNOWLEDGE_READ_MEMORY_MB">): ReadLimits {
  return { maxChars: env.KNOWLEDGE_MAX_CHARS, maxPages: env.KNOWLEDGE_MAX_PAGES, timeoutMs: env.KNOWLEDGE_READ_TIMEOUT_MS, memoryMb: env.KNOWLEDGE_READ_MEMORY_MB };
}

const count = (value: number) => value.toLocaleString("en-US");
const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/**
 * The text of an uploaded file, or an error that says why it cannot be used: not one of the
 * accepted kinds, empty, too large, bytes that are not what the name says (sniffed, never taken
 * from the name), more text or pages than the caps allow, a zip bomb, a file protected by a
 * password, or one that cannot be read (damaged, too slow or too big to read, no text).
 */
export async function extractText(name: string, bytes: Uint8Array, limits: ReadLimits): Promise<{ text: string; mediaType: string }> {
  const format = formatOf(name);
  if (!format) throw new AppError("bad_request", `${name}: only ${ACCEPTED_IN_WORDS} files can be added to an agent's knowledge.`);
  if (bytes.length === 0) throw new AppError("bad_request", `${name} is empty.`);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new AppError("payload_too_large", `${name} is ${(bytes.length / MB).toFixed(1)} MB; files can be at most 10 MB.`);
  const text = await read(name, bytes, format.reader, limits);
  if (text.trim().length === 0) throw new AppError("bad_request", `${name} contains no text${emptyHint[format.reader] ?? ""}.`);
  return { text, mediaType: format.mediaType };
}

const emptyHint: Partial<Record<Reader, string>> = { pdf: " (a scanned PDF without a text layer?)", html: " (only markup, scripts or styles?)" };

async function read(name: string, bytes: Uint8Array, reader: Reader, limits: ReadLimits): Promise<string> {
  // file-type reads the start of the file (and at most 1 MB of a zip's entries) on the event loop.
  const detected = (await fileTypeFromBuffer(bytes))?.mime;
  switch (reader) {
    case "pdf":
      if (detected && detected !== "application/pdf") throw notWhatItSays(name, "a PDF", detected);
      return pdfText(name, bytes, limits);
    case "docx":
      return docxText(name, bytes, detected, limits);
    case "html":
    case "csv":
    case "tsv":
    case "json":
      // Checked here, in a few milliseconds; decoded and turned into text or records in the worker.
      checkText(name, bytes, detected);
      if (!isUtf8(bytes)) throw notUtf8(name);
      return workerText(name, reader, bytes, limits);
    case "text":
      return plainText(name, bytes, detected, limits);
  }
}

const KNOWN_TYPES: Record<string, string> = { "application/pdf": "a PDF", "application/zip": "a zip archive", [DOCX]: "a Word document", "application/x-cfb": "an Office file of the old kind" };

function notWhatItSays(name: string, claimed: string, detected: string): AppError {
  const actually = KNOWN_TYPES[detected] ? `${KNOWN_TYPES[detected]} (${detected})` : detected;
  return new AppError("bad_request", `${name} is not ${claimed}: its bytes are ${actually}. Rename it to what it is, or upload the right file.`);
}

const notUtf8 = (name: string) => new AppError("bad_request", `${name} is not UTF-8 text. Save it as UTF-8 and upload it again.`);

/** Text has no signature: bytes that file-type recognises (other than XML, which is text) are something else. */
function checkText(name: string, bytes: Uint8Array, detected: string | undefined): void {
  if (detected && detected !== "application/xml") throw notWhatItSays(name, "text", detected);
  if (!fewControlCharacters(bytes)) throw new AppError("bad_request", `${name} looks like a binary file, not text. Upload it in one of the formats listed.`);
}

/** UTF-8 text with "\n" line endings and no byte-order mark, checked on the event loop: simdutf checks 10 MB in a few milliseconds. */
function plainText(name: string, bytes: Uint8Array, detected: string | undefined, limits: ReadLimits): string {
  checkText(name, bytes, detected);
  // Two characters past the cap: decodeText keeps a cut emoji whole by ending a character early,
  // and a text one character over the cap must still be seen to be over it.
  const text = decodeText(bytes, limits.maxChars + 2);
  if (text === null) throw notUtf8(name);
  if (text.length > limits.maxChars) throw tooMuchText(name, limits);
  return text;
}

function tooMuchText(name: string, { maxChars }: ReadLimits): AppError {
  return new AppError("payload_too_large", `${name} has more than ${count(maxChars)} characters of text; split it and upload the parts.`);
}

/** The text layer of a PDF, or the reason it cannot be read (not a PDF, encrypted, damaged, over a limit). */
export async function pdfText(name: string, bytes: Uint8Array, limits: ReadLimits): Promise<string> {
  if (!startsWith(bytes, [0x25, 0x50, 0x44, 0x46])) {
    throw new AppError("bad_request", `${name} is not a PDF (it does not start with %PDF).`);
  }
  return workerText(name, "pdf", bytes, limits);
}

/**
 * A Word document's text. Before the worker opens it: a file protected by a password (Word saves
 * it as an OLE compound file, not a zip), bytes of another kind, a zip that is not a Word document,
 * and a zip bomb (by what its central directory declares) are refused with the reason.
 */
async function docxText(name: string, bytes: Uint8Array, detected: string | undefined, limits: ReadLimits): Promise<string> {
  if (startsWith(bytes, OLE_SIGNATURE)) {
    throw new AppError("bad_request", `${name} is protected by a password (or is an old-style Word file named .docx). Save a copy as .docx without a password and upload that.`);
  }
  if (detected && detected !== DOCX && detected !== "application/zip") throw notWhatItSays(name, "a Word document", detected);
  const entries = readZipDirectory(bytes);
  if (!entries) throw new AppError("bad_request", `${name} is not a Word document: a .docx is a zip archive, and this file is not one (or it is damaged). Save it again from Word as .docx.`);
  const bomb = (why: string) => new AppError("payload_too_large", `${name} ${why}: it looks like a zip bomb, so it was not opened.`);
  if (entries.length > DOCX_LIMITS.maxEntries) throw bomb(`holds ${count(entries.length)} files, where a Word document may hold ${count(DOCX_LIMITS.maxEntries)}`);
  const unpacked = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (unpacked > DOCX_LIMITS.maxUnpackedBytes) throw bomb(`would unpack to ${count(Math.ceil(unpacked / MB))} MB, more than ${count(DOCX_LIMITS.maxUnpackedBytes / MB)} MB`);
  const inflating = entries.find((entry) => entry.uncompressedSize >= DOCX_LIMITS.ratioFromBytes && entry.uncompressedSize > DOCX_LIMITS.maxRatio * Math.max(entry.compressedSize, 1));
  if (inflating) throw bomb(`holds ${inflating.name}, which would unpack to ${count(Math.floor(inflating.uncompressedSize / Math.max(inflating.compressedSize, 1)))} times its packed size (at most ${DOCX_LIMITS.maxRatio})`);
  if (entries.some((entry) => entry.encrypted)) throw new AppError("bad_request", `${name} is protected by a password. Save a copy without one and upload that.`);
  if (!entries.some((entry) => entry.name === "word/document.xml")) {
    throw new AppError("bad_request", `${name} is a zip archive without word/document.xml, so it is not a Word document. Save it again from Word as .docx.`);
  }
  return workerText(name, "docx", bytes, limits);
}

const kindWords: Record<WorkerKind, { noun: string; saveAs: string }> = {
  pdf: { noun: "a PDF", saveAs: "PDF" },
  docx: { noun: "a Word document", saveAs: ".docx" },
  html: { noun: "a web page", saveAs: "HTML" },
  csv: { noun: "CSV", saveAs: "CSV" },
  tsv: { noun: "TSV", saveAs: "TSV" },
  json: { noun: "JSON", saveAs: "JSON" },
};

async function workerText(name: string, kind: WorkerKind, bytes: Uint8Array, limits: ReadLimits): Promise<string> {
  const read = await readInWorker(kind, bytes, limits);
  if (read.kind === "text") return read.text;
  throw refusal(name, kind, read, limits);
}

function refusal(name: string, kind: WorkerKind, read: Exclude<WorkerRead, { kind: "text" }>, limits: ReadLimits): AppError {
  const { noun, saveAs } = kindWords[kind];
  switch (read.kind) {
    case "too_many_pages":
      return new AppError("payload_too_large", `${name} has more than ${count(limits.maxPages)} pages (${count(read.pages)}); split it and upload the parts.`);
    case "too_many_chars":
      return tooMuchText(name, limits);
    case "refused":
      return new AppError("bad_request", `${name} ${read.reason}`);
    case "timed_out": {
      const seconds = limits.timeoutMs / 1000;
      return new AppError("bad_request", `${name} took too long to read (over ${count(seconds)} second${seconds === 1 ? "" : "s"}). It may be damaged: save it again as ${saveAs}, or upload its text as a .txt file.`);
    }
    case "out_of_memory":
      return new AppError("payload_too_large", `${name} is too large to read (it needs more than ${count(limits.memoryMb)} MB of memory). Split it, or upload its text as a .txt file.`);
    case "unreadable":
      // pdf.js's PasswordException: "No password given".
      if (/password/i.test(read.reason)) return new AppError("bad_request", `${name} is protected by a password. Save a copy without one and upload that.`);
      // JSZip's check once a part inflated to other than its declared size: a zip bomb that lies.
      if (kind === "docx" && /size mismatch/i.test(read.reason)) {
        return new AppError("bad_request", `${name} is damaged: a part of it unpacks to another size than the archive declares (it may be a zip bomb). Save it again from Word as .docx.`);
      }
      return new AppError("bad_request", `${name} could not be read as ${noun} (${read.reason}). Save it again as ${saveAs}, or upload its text as a .txt file.`);
  }
}
