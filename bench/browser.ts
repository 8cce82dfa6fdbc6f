import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { chromiumLaunchOptions } from "@/e2e/chromium-launch";
import { api, buildApp, seedMessages, signIn, startServer } from "./browser-server";
import { percentile, result, type BenchResult } from "./measure";

/** Issue 22's targets. */
const TARGET = { tokenP95Ms: 2, openMs: 500, droppedPercent: 5 };
const OPEN_RUNS = 7;
const QUESTIONS = 3;
/** The scripted scroll's speed: a brisk flick, about 6,000 px a second at 60 frames a second. */
const SCROLL_PX_PER_FRAME = 100;

/** tsx (esbuild) names functions with a `__name` helper, which the functions sent into the page do not carry. */
const NAME_SHIM = { content: "globalThis.__name = (target) => target;" };

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

type Size = "small" | "large" | "huge";

interface World {
  url: string;
  cookie: string;
  /** Conversation ids by size, and each one's newest seq. */
  conversations: Record<Size, string>;
  newest: Record<Size, number>;
}

const SIZES: Record<Size, number> = { small: 50, large: 2_000, huge: 10_000 };

/**
 * Issue 22's browser figures, with real Chromium against the production build on the embedded
 * database (as the e2e suite runs it), in conversations seeded straight into the database:
 * - main-thread time per streamed token while 2,000 messages are loaded (p95 ≤ 2 ms): from a
 *   Chromium trace, every top-level task of the page's main thread between one `message:delta`
 *   and the next (the socket's message, React, style, layout, paint, anything else that ran), for
 *   three streamed replies; against the same in a 50-message conversation;
 * - opening a 10,000-message conversation until its newest message is on screen (≤ 500 ms), from
 *   the navigation's start, against opening a 50-message one;
 * - frames dropped while scrolling back through the 2,000 loaded messages at a steady 6,000 px/s
 *   (≤ 5 %), against the same count of frames while the page is idle.
 * `BENCH_BROWSER_BUILT=1` skips `next build` (an up-to-date build is there).
 */
export async function measureBrowser(): Promise<BenchResult[]> {
  if (!process.env.BENCH_BROWSER_BUILT) await buildApp();
  const dataDir = await mkdtemp(path.join(tmpdir(), "chorus-bench-browser-"));
  const port = await freePort();
  let server = await startServer(port, dataDir);
  let browser: Browser | null = null;
  try {
    const world = await prepare(server.url, dataDir, async () => {
      await server.stop();
    });
    server = await startServer(port, dataDir);
    browser = await chromium.launch(chromiumLaunchOptions());
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(world.cookie.split("; ").map((pair) => ({ name: pair.split("=")[0]!, value: pair.slice(pair.indexOf("=") + 1), url: world.url })));

    console.log("  opening conversations…");
    const open = { small: await openTimes(context, world, "small"), huge: await openTimes(context, world, "huge") };
    console.log("  streaming with 50 messages…");
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.addInitScript(markDeltas);
    const smallTokens = await tokenTimes(browser, page, world, "small");
    console.log("  loading 2,000 messages…");
    await loadAll(page, world);
    console.log("  scrolling back through them…");
    const scrolling = await droppedFrames(page);
    console.log("  streaming with 2,000 loaded…");
    const largeTokens = await tokenTimes(browser, page, world, "large");
    await page.close();
    console.log(`  ${largeTokens.length} tokens timed with ${SIZES.large} loaded, ${smallTokens.length} with ${SIZES.small}; ${scrolling.frames} frames scrolled`);

    return [
      result("browser: main-thread time per streamed token, p95 (2,000 loaded vs 50)", "ms", percentile(largeTokens, 95), percentile(smallTokens, 95), { valueAtMost: TARGET.tokenP95Ms }),
      result("browser: main-thread time per streamed token, p50 (2,000 loaded vs 50)", "ms", percentile(largeTokens, 50), percentile(smallTokens, 50)),
      result("browser: open a 10,000-message conversation, newest shown, p50 (vs 50 messages)", "ms", percentile(open.huge, 50), percentile(open.small, 50), { valueAtMost: TARGET.openMs }),
      result("browser: open a 10,000-message conversation, newest shown, slowest of 7", "ms", Math.max(...open.huge), Math.max(...open.small), { valueAtMost: TARGET.openMs }),
      result("browser: frames dropped scrolling back through 2,000 messages (vs idle)", "%", scrolling.droppedPercent, scrolling.idlePercent, { valueAtMost: TARGET.droppedPercent }),
    ];
  } finally {
    await browser?.close();
    await server.stop();
    await rm(dataDir, { recursive: true, force: true, maxRetries: 5, retryDelay: 500 });
  }
}

/** The demo member's channels of 50, 2,000 and 10,000 messages (with Toby), made through the API and filled in the database. */
export async function prepare(url: string, dataDir: string, stopServer: () => Promise<void>): Promise<World> {
  const cookie = await signIn(url, "member@chorus.local", "chorus-demo");
  const adminCookie = await signIn(url, "admin@chorus.local", "chorus-demo");
  const directory = await api<{ agents: { id: string; handle: string }[] }>(url, cookie, "/api/directory");
  const toby = directory.agents.find((agent) => agent.handle === "toby")!;
  const conversations = {} as World["conversations"];
  for (const size of Object.keys(SIZES) as Size[]) {
    const { conversationId } = await api<{ conversationId: string }>(url, cookie, "/api/conversations", { type: "channel", name: `bench-${size}-${Date.now().toString(36)}`, agentIds: [toby.id] });
    conversations[size] = conversationId;
  }
  const memberId = await userId(url, cookie);
  const adminId = await userId(url, adminCookie);
  // A second person takes part: the admin joins each (public) channel.
  for (const id of Object.values(conversations)) await api(url, adminCookie, `/api/conversations/${id}/members`, { userId: adminId });
  await stopServer();
  const newest = {} as World["newest"];
  for (const size of Object.keys(SIZES) as Size[]) {
    newest[size] = await seedMessages(dataDir, { conversationId: conversations[size], count: SIZES[size], people: [memberId, adminId], agentId: toby.id, readerId: memberId });
  }
  console.log(`  seeded: newest seqs ${JSON.stringify(newest)}`);
  return { url, cookie, conversations, newest };
}

async function userId(url: string, cookie: string): Promise<string> {
  const session = await fetch(`${url}/api/auth/get-session`, { headers: { cookie } }).then((response) => response.json() as Promise<{ user: { id: string } }>);
  return session.user.id;
}

/** Opening a conversation until its newest message is on screen, from the navigation's start: one warm-up, then OPEN_RUNS. */
async function openTimes(context: BrowserContext, world: World, size: Size): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run <= OPEN_RUNS; run++) {
    const page = await context.newPage();
    await page.addInitScript(NAME_SHIM);
    await page.addInitScript(watchNewest, world.newest[size]);
    await page.goto(`${world.url}/c/${world.conversations[size]}`, { waitUntil: "domcontentloaded" });
    const shown = await page
      .waitForFunction(() => (window as Watched).chorusNewestShown ?? false, undefined, { timeout: 30_000 })
      .then((handle) => handle.jsonValue() as Promise<number>)
      .catch(async (error: unknown) => {
        await page.screenshot({ path: path.join(tmpdir(), `chorus-bench-browser-${size}.png`) });
        throw new Error(`opening the ${size} conversation (run ${run}): ${String(error)}`);
      });
    if (run > 0) times.push(shown);
    await page.close();
  }
  return times;
}

type Watched = Window & { chorusNewestShown?: number };

/**
 * In the page, from the document's start (an init script): every frame, before it is painted,
 * whether the message numbered `seq` is inside the message list's view; the frame that first has
 * it is timed once painted, from the navigation's start: by Chromium's first contentful paint
 * when it is that frame, otherwise when a task queued then runs (after the paint).
 * A check run by Playwright instead starts after DOMContentLoaded and waits for the main thread,
 * which is still busy with the page's scripts when the server-rendered messages are painted.
 */
function watchNewest(seq: number) {
  const inView = () => {
    const element = document.querySelector(`[data-testid="message-scroller"] [data-seq="${seq}"]`);
    const scroller = element?.closest('[data-testid="message-scroller"]');
    if (!element || !scroller) return false;
    const box = element.getBoundingClientRect();
    const view = scroller.getBoundingClientRect();
    return box.height > 0 && box.top >= view.top - 1 && box.bottom <= view.bottom + 1;
  };
  const frame = (frameStart: number) => {
    if (!inView()) return requestAnimationFrame(frame);
    // A task queued now runs once this frame is painted: when the main thread is free again.
    const painted = new Promise<number>((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve(performance.now());
      channel.port2.postMessage(null);
    });
    // Chromium reports the first contentful paint later, with the time it was presented: when
    // that is this frame (it began no earlier), the newest message was shown then.
    const firstPaint = new Promise<number>((resolve) =>
      new PerformanceObserver((list, observer) => {
        const paint = list.getEntriesByName("first-contentful-paint")[0];
        if (!paint) return;
        observer.disconnect();
        resolve(paint.startTime);
      }).observe({ type: "paint", buffered: true }),
    );
    void Promise.all([painted, firstPaint]).then(([afterPaint, firstContentful]) => {
      (window as Watched).chorusNewestShown = firstContentful >= frameStart ? firstContentful : afterPaint;
    });
  };
  requestAnimationFrame(frame);
}

/** In the page: a user-timing mark at each streamed piece, as the socket receives it (before Socket.IO's own handler). */
function markDeltas() {
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args: ConstructorParameters<typeof WebSocket>) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string" && event.data.includes('"message:delta"')) performance.mark("chorus-delta");
      });
    }
  };
}

const scroller = (page: Page) => page.locator('[data-testid="message-scroller"]');

/** Scrolls to the top until the conversation's beginning is loaded, then back to the newest message. */
async function loadAll(page: Page, world: World): Promise<void> {
  await page.goto(`${world.url}/c/${world.conversations.large}`);
  await page.waitForSelector(`[data-seq="${world.newest.large}"]`);
  const beginning = page.getByText("This is the beginning of the conversation.");
  for (let step = 0; step < 400 && !(await beginning.isVisible()); step++) {
    await scroller(page).evaluate((element) => element.scrollTo(0, 0));
    await page.waitForTimeout(100);
  }
  if (!(await beginning.isVisible())) throw new Error("the 2,000 messages did not load");
  await toBottom(page);
}

async function toBottom(page: Page): Promise<void> {
  for (let step = 0; step < 20; step++) {
    await scroller(page).evaluate((element) => element.scrollTo(0, element.scrollHeight));
    await page.waitForTimeout(100);
    if (await scroller(page).evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 2)) return;
  }
}

/**
 * Asks Toby QUESTIONS times (the offline model reads the numbered steps back, a word every 40 ms)
 * under a Chromium trace, and returns each piece's main-thread time: the top-level tasks of the
 * page's main thread from its arrival to the next piece's.
 */
async function tokenTimes(browser: Browser, page: Page, world: World, size: Size): Promise<number[]> {
  if (size === "small") {
    await page.goto(`${world.url}/c/${world.conversations.small}`);
    await page.waitForSelector(`[data-seq="${world.newest.small}"]`);
  }
  await toBottom(page);
  const samples: number[] = [];
  for (let question = 0; question < QUESTIONS; question++) {
    const composer = page.getByRole("textbox", { name: /^Message #bench-/ });
    const steps = Array.from({ length: 12 }, (_, index) => `${index + 1}. check part ${index + 1} of the release notes with the whole team before we ship`).join("\n");
    await composer.fill(`@toby question ${question + 1}, read these back to me:\n${steps}`);
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "toplevel", "blink.user_timing"] });
    await composer.press("Enter");
    await page.getByRole("listitem", { name: "Toby is replying" }).waitFor({ timeout: 30_000 });
    // The end of the reply, checked once a second with a selector: Playwright's role query, polled
    // meanwhile, took 2-4 ms of the page's main thread each time, counted as the pieces' own.
    await page.waitForFunction(() => !document.querySelector('li[aria-busy="true"]'), undefined, { polling: 1_000, timeout: 60_000 });
    const trace = JSON.parse((await browser.stopTracing()).toString("utf8")) as { traceEvents: TraceEvent[] };
    samples.push(...perToken(trace.traceEvents));
  }
  return samples;
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  args?: { name?: string };
}

/**
 * Milliseconds of top-level tasks on the page's main thread per streamed piece: from the start of
 * the task its mark was made in (the socket's message) to the start of the next piece's, the last
 * one to its reply's end (200 ms at most).
 */
function perToken(events: TraceEvent[]): number[] {
  const marks = events.filter((event) => event.name === "chorus-delta").sort((a, b) => a.ts - b.ts);
  if (marks.length < 2) return [];
  const { pid } = marks[0]!;
  const main = events.find((event) => event.ph === "M" && event.name === "thread_name" && event.pid === pid && event.args?.name === "CrRendererMain");
  if (!main) return [];
  const onMain = events.filter((event) => event.pid === pid && event.tid === main.tid && event.ph === "X" && event.dur !== undefined);
  const tasks = onMain.filter((event) => event.name === "RunTask").length > 0 ? onMain.filter((event) => event.name === "RunTask") : onMain.filter((event) => event.name === "ThreadControllerImpl::RunTask");
  const starts = marks.map((mark) => tasks.find((task) => task.ts <= mark.ts && task.ts + task.dur! >= mark.ts)?.ts ?? mark.ts);
  return starts.map((start, index) => {
    const end = index + 1 < starts.length ? starts[index + 1]! : start + 200_000;
    const busy = tasks.reduce((sum, task) => sum + Math.max(0, Math.min(task.ts + task.dur!, end) - Math.max(task.ts, start)), 0);
    return busy / 1000;
  });
}

/**
 * Scrolls from the newest of the 2,000 loaded messages to the oldest at a steady speed, one step
 * per frame, and counts the frames missed (an interval of n frames' length missed n − 1); the
 * same count over as many frames of the idle page is the baseline.
 */
async function droppedFrames(page: Page): Promise<{ droppedPercent: number; idlePercent: number; frames: number }> {
  const frames = (step: number, count: number) =>
    scroller(page).evaluate(
      (element, { step: by, count: most }) =>
        new Promise<number[]>((resolve) => {
          const intervals: number[] = [];
          let last = 0;
          const tick = (now: number) => {
            if (last) intervals.push(now - last);
            last = now;
            if (by > 0 ? element.scrollTop <= 0 : intervals.length >= most) return resolve(intervals);
            // As a reader's wheel does: its event (which lets the list stop holding the message being read), then the scroll.
            if (by > 0) {
              element.dispatchEvent(new WheelEvent("wheel", { deltaY: -by, bubbles: true }));
              element.scrollBy(0, -by);
            }
            requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
      { step, count },
    );
  const moving = await frames(SCROLL_PX_PER_FRAME, 0);
  const idle = await frames(0, moving.length);
  return { droppedPercent: droppedShare(moving) * 100, idlePercent: droppedShare(idle) * 100, frames: moving.length };
}

/** Missed frames over all frames, with the frame's length taken as the median interval. */
function droppedShare(intervals: number[]): number {
  if (intervals.length === 0) return 0;
  const frame = percentile(intervals, 50);
  const missed = intervals.reduce((sum, interval) => sum + Math.max(0, Math.round(interval / frame) - 1), 0);
  return missed / (intervals.length + missed);
}
