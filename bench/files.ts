import { randomUUID } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { openImage, thumbnailOf, prepareImage } from "@/lib/attachments/prepare-image";
import { signUpOn, startNode, type NodeProcess } from "@/test/support/node-process";
import { percentile, result, type BenchResult } from "./measure";

const MB = 1024 * 1024;
/** The default ATTACHMENT_MAX_MB: the largest file a person may attach. */
const UPLOAD_BYTES = 25 * MB;
/** Idle and uploading blocks alternate, so that a slow spell of the machine weighs on neither side. */
const ROUNDS = 4;
const IDLE_POSTS_PER_ROUND = 15;
/** Between two posts; ten people posting in turn stay under the rate limit (20 per 10 s each). */
const POST_PAUSE_MS = 100;
const POSTERS = 10;
const PHOTO = { width: 4_000, height: 3_000 };
const THUMBNAIL_ROUNDS = 10;
const TARGET = { lagP99Ms: 50, postRatio: 2, thumbnailMs: 300 };

interface EventLoopReading {
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  samples: number;
  /** The share of the time the event loop was running code. */
  busy: number;
}

const percent = (share: number) => `${Math.round(share * 100)}%`;

interface World {
  url: string;
  conversationId: string;
  cookies: string[];
}

/**
 * How fast the person's browser sends: a fast office uplink, and as fast as loopback goes (about
 * 800 Mbit/s here); uploads enough a block for some 20 posts to be timed during it.
 */
const LINKS = [
  { name: "100mbit", label: "at 100 Mbit/s", bytesPerSecond: 100e6 / 8, uploadsPerRound: 1 },
  { name: "loopback", label: "at loopback speed", bytesPerSecond: Infinity, uploadsPerRound: 10 },
] as const;

/**
 * Issue 20's targets. On a real node (bench/files-node.ts: startChorus on the embedded database
 * in a DATA_DIR of its own), in one run: the node's event-loop delay p99 while 25 MB log files
 * are uploaded one after another, and the latency of posting a message (HTTP) meanwhile against
 * the same posts on the idle node, in alternating blocks; at each of LINKS. Then, in this process,
 * Chorus's thumbnail of a 12-megapixel photo (a noisy JPEG turned by its EXIF orientation, made
 * here with sharp), and the whole preparation an upload waits for (upright, re-encoded without
 * metadata, thumbnail).
 */
export async function measureFiles(): Promise<BenchResult[]> {
  const photo = await noisyPhoto();
  const dataDir = await mkdtemp(path.join(tmpdir(), "chorus-bench-files-"));
  // Some 50 uploads of 25 MB: past a person's default quota of 1 GB.
  const node = await startNode({ DATA_DIR: dataDir, LOG_LEVEL: "error", ATTACHMENT_QUOTA_MB: "10000" }, { script: "bench/files-node.ts", nodeOptions: ["--conditions=react-server"] });
  try {
    const world = await populate(node);
    const log = await multipart("server.log", "text/plain", logFile(UPLOAD_BYTES));
    const encodedPhoto = await multipart("photo.jpg", "image/jpeg", photo);
    // Warm-up: the node loads file-type, sharp and the routes, and plans its queries.
    await postLoop(world, 5);
    await upload(world, log);
    await upload(world, encodedPhoto);

    const results: BenchResult[] = [];
    for (const link of LINKS) {
      const measured = await uploadsAgainstPosts(world, log, link);
      const { idleLoop, busyLoop, idlePosts, busyPosts, uploadMs } = measured;
      console.log(
        `files ${link.label}: ${ROUNDS} × ${link.uploadsPerRound} uploads of ${UPLOAD_BYTES / MB} MB, ${percentile(uploadMs, 50).toFixed(0)} ms each (p50); ` +
          `event loop (worst block) p99 ${busyLoop.p99Ms.toFixed(1)} ms, max ${busyLoop.maxMs.toFixed(1)} ms, busy ${percent(busyLoop.busy)} ` +
          `(idle: p99 ${idleLoop.p99Ms.toFixed(1)} ms, busy ${percent(idleLoop.busy)}); ` +
          `posts p50 ${percentile(busyPosts, 50).toFixed(1)} ms, p95 ${percentile(busyPosts, 95).toFixed(1)} ms over ${busyPosts.length} ` +
          `(idle: p50 ${percentile(idlePosts, 50).toFixed(1)} ms, p95 ${percentile(idlePosts, 95).toFixed(1)} ms over ${idlePosts.length})`,
      );
      results.push(
        result(`files.upload_25mb.${link.name}.event_loop_p99_ms`, "ms", busyLoop.p99Ms, idleLoop.p99Ms, { valueAtMost: TARGET.lagP99Ms }),
        result(`files.upload_25mb.${link.name}.post_p50_ms`, "ms", percentile(busyPosts, 50), percentile(idlePosts, 50), { ratioAtMost: TARGET.postRatio }),
        // Against the time the link takes to carry the file (loopback has no such figure).
        result(`files.upload_25mb.${link.name}.upload_ms`, "ms", percentile(uploadMs, 50), Number.isFinite(link.bytesPerSecond) ? (UPLOAD_BYTES / link.bytesPerSecond) * 1000 : null),
      );
    }

    const photoUploads: number[] = [];
    for (let index = 0; index < 5; index += 1) photoUploads.push(await upload(world, encodedPhoto));
    const thumbnails = await timeRounds(() => thumbnailOf(openImage(photo, "image/jpeg")));
    const prepared = await timeRounds(() => prepareImage("photo.jpg", photo, "image/jpeg"));
    console.log(`files: a ${(photo.length / MB).toFixed(1)} MB 12-megapixel photo: thumbnail ${percentile(thumbnails, 50).toFixed(0)} ms, prepared ${percentile(prepared, 50).toFixed(0)} ms, uploaded ${percentile(photoUploads, 50).toFixed(0)} ms (p50)`);
    return [
      ...results,
      result("files.thumbnail_12mp_ms", "ms", percentile(thumbnails, 50), null, { valueAtMost: TARGET.thumbnailMs }),
      // What an upload of the photo waits for (upright, re-encoded, thumbnail), against the thumbnail alone.
      result("files.prepare_image_12mp_ms", "ms", percentile(prepared, 50), percentile(thumbnails, 50)),
      // The whole upload over HTTP, against its image work.
      result("files.upload_photo_12mp_ms", "ms", percentile(photoUploads, 50), percentile(prepared, 50)),
    ];
  } finally {
    await node.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

interface UploadsAgainstPosts {
  idleLoop: EventLoopReading;
  busyLoop: EventLoopReading;
  idlePosts: number[];
  busyPosts: number[];
  uploadMs: number[];
}

/** Blocks of posts on the idle node, then of posts while files are uploaded one after another, in turn. */
async function uploadsAgainstPosts(world: World, encoded: EncodedUpload, { bytesPerSecond, uploadsPerRound }: (typeof LINKS)[number]): Promise<UploadsAgainstPosts> {
  const measured: Omit<UploadsAgainstPosts, "idleLoop" | "busyLoop"> = { idlePosts: [], busyPosts: [], uploadMs: [] };
  const idleLoops: EventLoopReading[] = [];
  const busyLoops: EventLoopReading[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    await readEventLoop(world, true);
    measured.idlePosts.push(...(await postLoop(world, IDLE_POSTS_PER_ROUND)));
    idleLoops.push(await readEventLoop(world, true));
    let uploading = true;
    const uploads = (async () => {
      for (let index = 0; index < uploadsPerRound; index += 1) measured.uploadMs.push(await upload(world, encoded, bytesPerSecond));
    })().finally(() => (uploading = false));
    // Together: a failed upload ends the bench (and its node) at once.
    const [posts] = await Promise.all([postLoop(world, Infinity, () => uploading), uploads]);
    measured.busyPosts.push(...posts);
    busyLoops.push(await readEventLoop(world, true));
  }
  // Each block has its own reading; the worst block is the one reported.
  return { ...measured, idleLoop: worst(idleLoops), busyLoop: worst(busyLoops) };
}

/** People who post in the node's channel (signing up joins it). */
async function populate(node: NodeProcess): Promise<World> {
  const { conversationId } = JSON.parse(node.ready) as { conversationId: string };
  const cookies: string[] = [];
  for (let index = 0; index < POSTERS; index += 1) cookies.push((await signUpOn(node.url, `Filer ${index}`)).cookie);
  return { url: node.url, conversationId, cookies };
}

/** Posts one message at a time, people in turn, `count` of them or for as long as `going` says: each post's latency. */
async function postLoop(world: World, count: number, going: () => boolean = () => true): Promise<number[]> {
  const latencies: number[] = [];
  for (let index = 0; index < count && going(); index += 1) {
    const started = performance.now();
    const response = await fetch(`${world.url}/api/conversations/${world.conversationId}/messages`, {
      method: "POST",
      headers: { cookie: world.cookies[index % world.cookies.length]!, origin: world.url, "content-type": "application/json" },
      body: JSON.stringify({ clientId: randomUUID(), content: `status update ${index}: the deploy is green` }),
    });
    await response.text();
    latencies.push(performance.now() - started);
    if (response.status !== 201) throw new Error(`posting answered ${response.status}`);
    await new Promise((resolve) => setTimeout(resolve, POST_PAUSE_MS));
  }
  return latencies;
}

interface EncodedUpload {
  body: Uint8Array;
  type: string;
}

/** A file as a browser sends it (multipart), encoded before any clock starts. */
async function multipart(name: string, type: string, bytes: Uint8Array): Promise<EncodedUpload> {
  const form = new FormData();
  form.set("file", new File([Buffer.from(bytes)], name, { type }));
  const draft = new Request("http://bench.invalid", { method: "POST", body: form });
  return { body: new Uint8Array(await draft.arrayBuffer()), type: draft.headers.get("content-type")! };
}

/** One upload by the first person, sent at most `bytesPerSecond`: its latency; anything but 201 stops the bench. */
async function upload(world: World, { body, type }: EncodedUpload, bytesPerSecond = Infinity): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${world.url}/api/conversations/${world.conversationId}/attachments`, {
    method: "POST",
    headers: { cookie: world.cookies[0]!, origin: world.url, "content-type": type },
    body: bytesPerSecond === Infinity ? body : paced(body, bytesPerSecond),
    duplex: "half",
  } as RequestInit);
  const answer = await response.text();
  const ms = performance.now() - started;
  if (response.status !== 201) throw new Error(`uploading answered ${response.status}: ${answer}`);
  return ms;
}

/** The body 64 KB at a time, each piece sent when a link of that speed would have carried it. */
function paced(body: Uint8Array, bytesPerSecond: number): ReadableStream<Uint8Array> {
  const started = performance.now();
  let offset = 0;
  return new ReadableStream({
    async pull(controller) {
      if (offset >= body.length) return controller.close();
      const due = started + (offset / bytesPerSecond) * 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - performance.now())));
      controller.enqueue(body.subarray(offset, (offset += 64 * 1024)));
    },
  });
}

async function readEventLoop(world: World, reset: boolean): Promise<EventLoopReading> {
  const response = await fetch(`${world.url}/bench/event-loop${reset ? "?reset=1" : ""}`);
  return (await response.json()) as EventLoopReading;
}

function worst(readings: EventLoopReading[]): EventLoopReading {
  return readings.reduce((worse, reading) => (reading.p99Ms > worse.p99Ms ? reading : worse));
}

async function timeRounds(work: () => Promise<unknown>): Promise<number[]> {
  await work();
  const times: number[] = [];
  for (let round = 0; round < THUMBNAIL_ROUNDS; round += 1) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * A server log as people attach them: timestamped lines of requests, a few words outside ASCII,
 * exactly `bytes` long.
 */
function logFile(bytes: number): Uint8Array {
  const paths = ["/api/conversations", "/api/search?q=café", "/api/attachments", "/health", "/api/messages → retry"];
  const lines: string[] = [];
  let length = 0;
  for (let index = 0; length < bytes; index += 1) {
    const at = new Date(Date.UTC(2026, 0, 1) + index * 137).toISOString();
    const line = `${at} ${index % 17 === 0 ? "WARN" : "INFO"} request id=${(index * 2_654_435_761) >>> 0} path=${paths[index % paths.length]} status=${index % 23 === 0 ? 503 : 200} took=${(index * 7) % 900} ms\n`;
    lines.push(line);
    length += Buffer.byteLength(line);
  }
  const text = Buffer.from(lines.join(""));
  // Cut on a line's end, padded with ASCII: the exact size, still valid UTF-8.
  const cut = text.lastIndexOf(0x0a, bytes - 1) + 1;
  return Buffer.concat([text.subarray(0, cut), Buffer.alloc(bytes - cut, "-")]);
}

/**
 * A 12-megapixel JPEG like a phone's: smooth colour over the frame with sensor noise on every
 * pixel (noise is what makes a photo expensive to encode), stored sideways with EXIF orientation 6.
 */
async function noisyPhoto(): Promise<Buffer> {
  const { width, height } = PHOTO;
  let state = 0x9e3779b9;
  const random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const light = Buffer.from(Array.from({ length: 40 * 30 * 3 }, () => Math.floor(random() * 256)));
  const pixels = await sharp(light, { raw: { width: 40, height: 30, channels: 3 } }).resize(width, height, { kernel: "cubic" }).raw().toBuffer();
  for (let index = 0; index < pixels.length; index += 1) pixels[index] = Math.min(255, Math.max(0, pixels[index]! + Math.round((random() - 0.5) * 40)));
  return sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
}
