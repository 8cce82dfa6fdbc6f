import { deflateSync } from "node:zlib";

/** One page's content stream: its drawing operators, stored as they are or FlateDecode-compressed. */
export interface PdfPage {
  operators: Uint8Array;
  deflate?: boolean;
}

const escape = (text: string) => text.replace(/[\\()]/g, (char) => `\\${char}`);
const showLine = (line: string) => `(${escape(line)}) Tj T*\n`;

/** Operators that write `lines` down a page in Helvetica. */
export function textOperators(lines: string[]): Uint8Array {
  return Buffer.from(`BT\n/F1 12 Tf\n72 720 Td\n14 TL\n${lines.map(showLine).join("")}ET`, "latin1");
}

/**
 * Operators that write `line` over and over, about `bytes` of them, in page-high blocks so every
 * line stays on the page (pdf.js drops text drawn outside it). Built by filling a buffer: joining
 * millions of strings would take longer than the test it feeds.
 */
export function repeatedTextOperators(line: string, bytes: number): Uint8Array {
  const block = Buffer.concat([textOperators(Array.from({ length: 40 }, () => line)), Buffer.from("\n")]);
  return Buffer.alloc(Math.max(1, Math.floor(bytes / block.length)) * block.length, block);
}

/**
 * A valid PDF with one page per entry, all in one font: enough for ingestion tests (and hostile
 * ones: thousands of pages, a huge page, a compressed bomb) without committing binary fixtures.
 */
export function makePdfPages(pages: PdfPage[]): Uint8Array<ArrayBuffer> {
  const fontId = 3;
  const pageId = (index: number) => fontId + 1 + index * 2;
  const objects: Uint8Array[] = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(`<< /Type /Pages /Kids [${pages.map((_, index) => `${pageId(index)} 0 R`).join(" ")}] /Count ${pages.length} >>`),
    Buffer.from("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"),
  ];
  pages.forEach((page, index) => {
    const data = page.deflate ? deflateSync(page.operators, { level: 9 }) : page.operators;
    objects.push(Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${pageId(index) + 1} 0 R /Resources << /Font << /F1 ${fontId} 0 R >> >> >>`));
    objects.push(Buffer.concat([Buffer.from(`<< /Length ${data.length}${page.deflate ? " /Filter /FlateDecode" : ""} >>\nstream\n`), data, Buffer.from("\nendstream")]));
  });
  const parts: Uint8Array[] = [Buffer.from("%PDF-1.4\n")];
  let length = parts[0]!.length;
  const offsets = objects.map((body, index) => {
    const offset = length;
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")]);
    parts.push(object);
    length += object.length;
    return offset;
  });
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("")}`;
  parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${length}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

/** A small, valid one-page PDF whose text layer holds `lines`. */
export function makePdf(lines: string[]): Uint8Array<ArrayBuffer> {
  return makePdfPages([{ operators: textOperators(lines) }]);
}
