import { Worker } from "node:worker_threads";
import { z } from "zod";

/** The caps on a file's text, and what one read in a worker may take (see lib/config/env.ts). */
export interface ReadLimits {
  maxChars: number;
  maxPages: number;
  timeoutMs: number;
  memoryMb: number;
}

/**
 * The kinds of file read in the worker: those whose parsers inflate, build trees or take long
 * (a 4 MB CSV or JSON file took over a second to turn into records).
 */
export type WorkerKind = "pdf" | "docx" | "html" | "csv" | "tsv" | "json";

/** How a read ended: the text, or which limit stopped it (the worker is gone either way). */
export type WorkerRead =
  | { kind: "text"; text: string }
  | { kind: "too_many_pages"; pages: number }
  | { kind: "too_many_chars" }
  | { kind: "unreadable"; reason: string }
  /** The file's content is refused, the reason in words (written to follow the file's name). */
  | { kind: "refused"; reason: string }
  | { kind: "timed_out" }
  | { kind: "out_of_memory" };

const workerReply = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("text"), text: z.string() }),
  z.object({ kind: z.literal("too_many_pages"), pages: z.number() }),
  z.object({ kind: z.literal("too_many_chars") }),
  z.object({ kind: z.literal("unreadable"), reason: z.string() }),
  z.object({ kind: z.literal("refused"), reason: z.string() }),
]);

const MB = 1024 * 1024;
// The heap limit does not cover ArrayBuffers, and parsers inflate into them (pdf.js's streams, a
// .docx's zip entries: a 1 MB FlateDecode bomb grew the process by 1.5 GB in ten seconds), so the
// process's resident memory is watched too: a read may grow it by `memoryMb`, checked this often.
const MEMORY_CHECK_MS = 50;
// The nursery is limited on its own; a fixed one keeps a read's heap within memoryMb + 32 MB.
const YOUNG_GENERATION_MB = 32;

// One read at a time per node: a read keeps a core busy, and on the two-core machines Chorus runs
// on the other one is the event loop's. It also makes the memory watch the read's own. A waiting
// read's clock starts when its turn comes.
let queue: Promise<unknown> = Promise.resolve();

/**
 * The text of a PDF, a Word document, a web page or a CSV or JSON file's records, read in a worker
 * thread of its own (nothing the parser does can block the event loop), stopped at the page and character caps, and
 * terminated when it passes its time or memory limit. Resolves once the worker has exited.
 */
export function readInWorker(kind: WorkerKind, bytes: Uint8Array, limits: ReadLimits): Promise<WorkerRead> {
  const turn = queue.then(() => run(kind, bytes, limits));
  queue = turn.catch(() => undefined);
  return turn;
}

function run(kind: WorkerKind, bytes: Uint8Array, { maxChars, maxPages, timeoutMs, memoryMb }: ReadLimits): Promise<WorkerRead> {
  return new Promise((resolve) => {
    const worker = new Worker(new URL("./file-text-worker.mjs", import.meta.url), {
      workerData: { kind, bytes, maxChars, maxPages },
      resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // A read in progress must not keep a node that is shutting down alive.
    worker.unref();
    const startRss = process.memoryUsage.rss();
    let settled = false;
    const finish = (result: WorkerRead) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(memoryWatch);
      void worker.terminate().then(() => resolve(result));
    };
    const timer = setTimeout(() => finish({ kind: "timed_out" }), timeoutMs).unref();
    const memoryWatch = setInterval(() => {
      if (process.memoryUsage.rss() - startRss > memoryMb * MB) finish({ kind: "out_of_memory" });
    }, MEMORY_CHECK_MS).unref();
    worker.on("message", (message: unknown) => {
      const reply = workerReply.safeParse(message);
      finish(reply.success ? reply.data : { kind: "unreadable", reason: "the reader answered something unexpected" });
    });
    worker.on("error", (error: Error & { code?: string }) => {
      finish(error.code === "ERR_WORKER_OUT_OF_MEMORY" ? { kind: "out_of_memory" } : { kind: "unreadable", reason: error.message });
    });
    worker.on("exit", () => finish({ kind: "unreadable", reason: "the reader stopped before it finished" }));
  });
}
