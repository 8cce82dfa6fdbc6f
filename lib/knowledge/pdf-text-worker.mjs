// Reads one PDF's text layer in a worker thread, then exits: pdf.js parses and inflates on the
// thread it runs on, so a hostile file (a FlateDecode bomb, a huge page) must never run on the
// event loop that serves HTTP and sockets. The parent enforces the time and memory limits by
// terminating this thread; here the page and character caps stop the work as early as possible.
// Plain JavaScript, so it starts the same under tsx, Vitest and Next's production build.
import { parentPort, workerData } from "node:worker_threads";
import { getDocumentProxy } from "unpdf";

const { bytes, maxChars, maxPages } = workerData;
const PAGE_BREAK = "\n\n";

/** The page's text as unpdf's extractText gives it, or null once the document would pass maxChars. */
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

async function read() {
  // Errors only: pdf.js's warnings about a damaged file are not the server's to log.
  const document = await getDocumentProxy(bytes, { verbosity: 0 });
  if (document.numPages > maxPages) return { kind: "too_many_pages", pages: document.numPages };
  const pages = [];
  let length = 0;
  for (let number = 1; number <= document.numPages; number++) {
    const separator = number === 1 ? 0 : PAGE_BREAK.length;
    const text = await pageText(await document.getPage(number), maxChars - length - separator);
    if (text === null) return { kind: "too_many_chars" };
    pages.push(text);
    length += separator + text.length;
  }
  return { kind: "text", text: pages.join(PAGE_BREAK) };
}

read().then(
  (result) => parentPort.postMessage(result),
  (error) => parentPort.postMessage({ kind: "unreadable", reason: error instanceof Error ? error.message : String(error) }),
);
