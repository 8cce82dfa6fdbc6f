// Reads one file's text in a worker thread, then exits: pdf.js, mammoth (which unzips a .docx
// and parses its XML) and html-to-text (which builds the page's tree) work on the thread they run
// on, so a hostile file (a FlateDecode bomb, a huge page, a zip bomb that lies about its sizes,
// millions of nested tags) must never run on the event loop that serves HTTP and sockets. The
// parent enforces the time and memory limits by terminating this thread; here the page and
// character caps stop the work as early as each parser allows.
// Plain JavaScript, so it starts the same under tsx, Vitest and Next's production build; each
// parser is imported only for its own kind, so reading a web page does not load pdf.js.
import { parentPort, workerData } from "node:worker_threads";

const { kind, bytes, maxChars, maxPages } = workerData;
const PAGE_BREAK = "\n\n";
const tooManyChars = { kind: "too_many_chars" };

/** A PDF page's text as unpdf's extractText gives it, or null once the document would pass maxChars. */
async function pageText(page, room) {
  // Streamed, not getTextContent(): a single page can hold millions of characters, and the cap
  // must stop pdf.js mid-page instead of after it has built them all.
  const reader = page.streamTextContent().getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    for (const item of value.items) if (item.str != null) text += item.str + (item.hasEOL ? "\n" : "");
    if (text.length > room) {
      await reader.cancel(new Error("the text cap is reached"));
      return null;
    }
  }
}

async function pdf() {
  const { getDocumentProxy } = await import("unpdf");
  // Errors only: pdf.js's warnings about a damaged file are not the server's to log.
  const document = await getDocumentProxy(bytes, { verbosity: 0 });
  if (document.numPages > maxPages) return { kind: "too_many_pages", pages: document.numPages };
  const pages = [];
  let length = 0;
  for (let number = 1; number <= document.numPages; number++) {
    const separator = number === 1 ? 0 : PAGE_BREAK.length;
    const text = await pageText(await document.getPage(number), maxChars - length - separator);
    if (text === null) return tooManyChars;
    pages.push(text);
    length += separator + text.length;
  }
  return { kind: "text", text: pages.join(PAGE_BREAK) };
}

/** A Word document's paragraphs, a blank line apart (mammoth's raw text), without its formatting. */
async function docx() {
  const { default: mammoth } = await import("mammoth");
  const { value } = await mammoth.extractRawText({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) });
  return capped(value.replace(/\r\n?/g, "\n").trimEnd());
}

/** What a reader sees of a web page: its text, links without their addresses, no scripts, styles, images or form controls. */
async function html() {
  const { convert } = await import("html-to-text");
  const skip = (selector) => ({ selector, format: "skip" });
  const text = convert(new TextDecoder().decode(bytes), {
    wordwrap: false,
    selectors: [
      ...["script", "style", "noscript", "template", "head", "svg", "canvas", "iframe", "object", "embed", "img", "picture", "video", "audio", "button", "input", "select", "textarea"].map(skip),
      { selector: "a", options: { ignoreHref: true } },
      // As written: html-to-text shouts headings and table headers by default.
      ...["h1", "h2", "h3", "h4", "h5", "h6"].map((selector) => ({ selector, options: { uppercase: false } })),
      // Every table as data, its cells in columns (by default only tables named in options are).
      { selector: "table", format: "dataTable", options: { uppercaseHeaderCells: false, maxColumnWidth: 200 } },
    ],
  });
  return capped(text);
}

function capped(text) {
  return text.length > maxChars ? tooManyChars : { kind: "text", text };
}

/**
 * The records' module is TypeScript (it shares lib/attachments/parse-csv). Next bundles this
 * worker with it; where nothing bundles it (Vitest, scripts run by tsx), tsx compiles it here.
 */
async function records() {
  try {
    return await import("./readable-records.ts");
  } catch {
    const { tsImport } = await import("tsx/esm/api");
    return tsImport("./readable-records.ts", import.meta.url);
  }
}

/** The file's UTF-8 text (checked by the parent) without a byte-order mark, lines ending in "\n", or null past maxChars. */
function sourceText() {
  const text = new TextDecoder().decode(bytes).replace(/\r\n?/g, "\n");
  return text.length > maxChars ? null : text;
}

async function csv(delimiter = ",") {
  const text = sourceText();
  return text === null ? tooManyChars : (await records()).csvRecords(text, { delimiter, maxChars });
}

async function json() {
  const text = sourceText();
  return text === null ? tooManyChars : (await records()).jsonRecords(text, { maxChars });
}

const readers = { pdf, docx, html, csv, tsv: () => csv("\t"), json };

readers[kind]().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ kind: "unreadable", reason: error instanceof Error ? error.message : String(error) }),
);
