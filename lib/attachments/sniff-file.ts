import { fileTypeFromBuffer } from "file-type";
import { AppError } from "@/lib/errors/app-error";
import { kindOf, type AttachmentKind } from "./attachment-kind";
import { decodeText, fewControlCharacters } from "./decode-text";

export interface SniffedFile {
  /** From the bytes (file-type), or from the name only for text, which has no signature. */
  mediaType: string;
  kind: AttachmentKind;
  /** A text file's text, decoded once while checking that it is text: its first `maxChars` characters. */
  text: string | null;
}

const PROGRAMS = new Set([
  "application/x-msdownload",
  "application/vnd.microsoft.portable-executable",
  "application/x-elf",
  "application/x-mach-binary",
  "application/x-executable",
  "application/x-sharedlib",
  "application/x-msi",
  "application/wasm",
  "application/x-apple-diskimage",
  "application/vnd.android.package-archive",
]);

const TEXT_TYPES: Record<string, string> = { md: "text/markdown", markdown: "text/markdown", csv: "text/csv", tsv: "text/tab-separated-values", json: "application/json", html: "text/html", htm: "text/html" };
const IMAGE_EXTENSIONS = new Set(["png", "jpg", "jpeg", "gif", "webp"]);
const TEXT_EXTENSIONS = new Set([
  "txt", "log", "md", "markdown", "csv", "tsv", "json", "yaml", "yml", "toml", "ini", "xml", "html", "htm", "css",
  "js", "mjs", "cjs", "ts", "tsx", "jsx", "py", "rb", "go", "rs", "java", "kt", "c", "h", "cpp", "hpp", "cs", "php", "sh", "sql",
]);

/** What a file's name claims it is, when the extension says. */
function claimedFamily(name: string): "image" | "pdf" | "text" | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  if (!extension) return null;
  if (IMAGE_EXTENSIONS.has(extension)) return "image";
  if (extension === "pdf") return "pdf";
  return TEXT_EXTENSIONS.has(extension) ? "text" : null;
}

const described: Record<string, string> = { image: "an image", pdf: "a PDF", text: "text" };

/**
 * The file's type from its bytes, never from its name or what the browser said. Refused, with
 * the reason: an empty file, a program, and a file whose name claims an image, a PDF or text
 * while its bytes are something else (an executable renamed .png, an archive named .txt).
 */
export async function sniffFile(name: string, bytes: Uint8Array, { maxChars }: { maxChars: number }): Promise<SniffedFile> {
  if (bytes.length === 0) throw new AppError("bad_request", `${name} is empty (0 bytes): there is nothing to attach.`);
  const detected = await fileTypeFromBuffer(bytes);
  if (detected && PROGRAMS.has(detected.mime)) throw new AppError("bad_request", `${name} is a program (${detected.mime}); programs cannot be attached.`);
  const sniffed = detected ? { mediaType: detected.mime, kind: kindOf(detected.mime), text: null } : fromContent(name, bytes, maxChars);
  const claimed = claimedFamily(name);
  if (claimed && claimed !== familyOf(sniffed)) {
    const actually = detected ? `its bytes are ${detected.mime}` : "its bytes are not what the name says";
    throw new AppError("bad_request", `${name} is not ${described[claimed]}: ${actually}. Rename it to what it is, or attach the right file.`);
  }
  return sniffed;
}

/** Files without a signature: UTF-8 text (typed by its name; SVG recognised, never an image here) or unknown bytes. */
function fromContent(name: string, bytes: Uint8Array, maxChars: number): SniffedFile {
  const text = fewControlCharacters(bytes) ? decodeText(bytes, maxChars) : null;
  if (text === null) return { mediaType: "application/octet-stream", kind: "file", text: null };
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/i.test(text.slice(0, 1_024).trimStart())) return { mediaType: "image/svg+xml", kind: "file", text: null };
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase() ?? "";
  return { mediaType: TEXT_TYPES[extension] ?? "text/plain", kind: "text", text };
}

function familyOf({ kind, mediaType }: SniffedFile): "image" | "pdf" | "text" | "other" {
  if (kind === "image" || kind === "pdf" || kind === "text") return kind;
  return mediaType === "image/svg+xml" ? "text" : "other";
}
