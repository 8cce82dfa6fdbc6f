import { randomUUID } from "node:crypto";
import { open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { Busboy, type BusboyInstance } from "@fastify/busboy";
import { formatBytes } from "@/lib/attachments/format-bytes";
import { AppError } from "@/lib/errors/app-error";

export interface UploadedFile {
  /** As the client sent it, path and all: the caller decides what a valid name is. */
  name: string;
  bytes: Uint8Array;
}

const NOT_MULTIPART = "Send the file as multipart/form-data in a field named file.";
const NO_FILE = "Choose a file to upload (a field named file).";
const INTERRUPTED = "The upload stopped before the whole file arrived. Send it again.";

/**
 * The file of a multipart upload (field "file"), or the reason there is none. The body is parsed
 * as it streams in and the file written to a temporary file, so a slow upload holds a file handle
 * rather than memory and no single step parses the whole body at once; past `maxBytes` the upload
 * is cut off and refused (413) with the limit. The bytes are read back (off the event loop) and
 * the temporary file removed whatever happens. A failing disk is the server's error (500, logged).
 */
export async function readUploadedFile(request: Request, { maxBytes }: { maxBytes: number }): Promise<UploadedFile> {
  const spooled = path.join(tmpdir(), `chorus-upload-${randomUUID()}`);
  try {
    const name = await spool(request, spooled, maxBytes);
    return { name, bytes: await readFile(spooled) };
  } finally {
    await rm(spooled, { force: true });
  }
}

async function spool(request: Request, file: string, maxBytes: number): Promise<string> {
  const parser = openParser(request, maxBytes);
  if (!request.body) throw new AppError("bad_request", NOT_MULTIPART);
  const source = Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>);
  let refusal: AppError | undefined;
  let writeError: unknown;
  let malformed = false;
  let spooling: { name: string; written: Promise<void> } | undefined;
  parser.on("file", (field, stream, name) => {
    // Other fields and any second file are read past, never kept.
    if (field !== "file" || spooling) return void stream.resume();
    stream.once("limit", () => {
      refusal = new AppError("payload_too_large", `${name || "This file"} is too large: files can be at most ${formatBytes(maxBytes)}.`);
      stream.destroy();
      source.destroy();
    });
    const written = writeInBatches(stream, file);
    written.catch((error: unknown) => {
      // The disk's failure (full, not writable) is the server's; the stream ending early is the body's, said below.
      if ((error as NodeJS.ErrnoException).syscall !== undefined) writeError = error;
      // Nothing would read the rest of the file.
      stream.destroy();
      source.destroy();
    });
    spooling = { name, written };
  });
  parser.once("error", () => (malformed = true));
  try {
    await pipeline(source, parser);
  } catch {
    if (!writeError) refusal ??= new AppError("bad_request", malformed ? NOT_MULTIPART : INTERRUPTED);
  }
  // Settled before anything is refused or read back: the temporary file is closed, never
  // created again after it has been removed.
  await spooling?.written.catch(() => undefined);
  if (writeError) throw writeError;
  if (refusal) throw refusal;
  if (!spooling) throw new AppError("bad_request", NO_FILE);
  return spooling.name;
}

// Pieces arrive 64 KB at a time: some 400 writes for a 25 MB file become 25, each a writev of
// the pieces as they are (not copied together).
const BATCH_BYTES = 1024 * 1024;

async function writeInBatches(stream: Readable, file: string): Promise<void> {
  const handle = await open(file, "w");
  try {
    let batch: Buffer[] = [];
    let size = 0;
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      batch.push(chunk);
      size += chunk.length;
      if (size < BATCH_BYTES) continue;
      await handle.writev(batch);
      batch = [];
      size = 0;
    }
    if (batch.length > 0) await handle.writev(batch);
  } finally {
    await handle.close();
  }
}

function openParser(request: Request, maxBytes: number): BusboyInstance {
  try {
    // This parser reads a name with control characters (browsers send them as they are), so the
    // caller can refuse it naming the character rather than as a malformed upload.
    return Busboy({
      headers: { "content-type": request.headers.get("content-type") ?? "" },
      // The name as sent: "../x.png" is refused by the caller, not quietly shortened to "x.png".
      preservePath: true,
      limits: { files: 1, fileSize: maxBytes, fields: 20, fieldSize: 64 * 1024, parts: 40 },
    });
  } catch {
    throw new AppError("bad_request", NOT_MULTIPART);
  }
}
