/** How Chorus treats a file: shown inline and read by vision models, read as text, or only downloaded. */
export type AttachmentKind = "image" | "pdf" | "text" | "file";

/** Images shown inline and thumbnailed; any other image (SVG included) is a file to download. */
const INLINE_IMAGES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);

/** The kind of a stored (sniffed) media type. */
export function kindOf(mediaType: string): AttachmentKind {
  if (INLINE_IMAGES.has(mediaType)) return "image";
  if (mediaType === "application/pdf") return "pdf";
  if (mediaType.startsWith("text/") || mediaType === "application/json") return "text";
  return "file";
}
