import type { AttachmentFile } from "./read-attachment";

// Types a browser would run or render as a page (scripts in an SVG, an HTML file): always a download.
const NEVER_INLINE = new Set(["image/svg+xml", "text/html", "application/xhtml+xml", "application/xml", "text/xml"]);

/**
 * The HTTP response for a file: its sniffed type (text as UTF-8), shown in the browser when that
 * is safe and downloaded otherwise, under its own name, never re-sniffed by the browser, and
 * sandboxed should a browser render it anyway.
 */
export function attachmentResponse({ name, mediaType, bytes }: AttachmentFile): Response {
  const inline = !NEVER_INLINE.has(mediaType);
  const type = mediaType.startsWith("text/") || mediaType === "application/json" ? `${mediaType}; charset=utf-8` : mediaType;
  // Never a SharedArrayBuffer: the bytes come from a file or an HTTP body.
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      "Content-Type": inline ? type : "application/octet-stream",
      "Content-Length": String(bytes.length),
      "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", name),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
      "Cache-Control": "private, max-age=3600",
    },
  });
}

/** RFC 6266: an ASCII fallback name and the real one, percent-encoded (RFC 8187). */
export function contentDisposition(disposition: "inline" | "attachment", name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
