import type { ChildProcess } from "node:child_process";
import type { Prisma } from "@/lib/db/open-database";

/**
 * Loaded into the measured node before its own code (NODE_OPTIONS, with --expose-gc): on SIGUSR2
 * it collects all garbage, then prints its live memory (heap and external) and resident size.
 * After a full collection the reading is what the node holds, not what its heap happens to have
 * reserved (the resident size barely moves under a burst: V8 reuses what it already took).
 */
const PROBE = `process.on("SIGUSR2", () => { globalThis.gc(); const m = process.memoryUsage(); console.log("MEMORY", m.heapUsed + m.external, m.rss); });`;

/** The environment that loads the probe into a node process (test/support/node-process.ts passes it on). */
export const memoryProbeEnv = { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --expose-gc --import=data:text/javascript,${encodeURIComponent(PROBE)}`.trim() };

interface MemorySample {
  liveKb: number;
  rssKb: number;
  /** Turns running (leased dispatches, on every node) right after the reading. */
  running: number;
}

export interface MemoryPerTurn {
  idle: MemorySample;
  peak: MemorySample;
  perTurnKb: number;
}

/**
 * Reads a probed node (memoryProbeEnv) every 200 ms until stopped. Each reading pauses the node
 * for a full collection, so a run with this sampler is not one whose times count.
 */
export function sampleLiveMemory(node: ChildProcess, prisma: Prisma): { stop(): Promise<MemoryPerTurn> } {
  const samples: MemorySample[] = [];
  let unread = "";
  let answer: ((reading: Omit<MemorySample, "running">) => void) | undefined;
  const onOutput = (chunk: Buffer) => {
    const lines = (unread + chunk.toString()).split("\n");
    unread = lines.pop()!;
    for (const line of lines) {
      const reading = /^MEMORY (\d+) (\d+)$/.exec(line);
      if (reading) answer?.({ liveKb: Number(reading[1]) / 1024, rssKb: Number(reading[2]) / 1024 });
    }
  };
  node.stdout!.on("data", onOutput);
  const read = () =>
    new Promise<Omit<MemorySample, "running">>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("the node's memory probe did not answer")), 5_000);
      answer = (reading) => {
        clearTimeout(timer);
        resolve(reading);
      };
      node.kill("SIGUSR2");
    });
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const reading = await read();
      samples.push({ ...reading, running: await prisma.dispatch.count({ where: { status: "running" } }) });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  // A failed reading ends the sampling; stop() reports it once the burst is over.
  sampling.catch(() => undefined);
  return {
    async stop() {
      stopped = true;
      await sampling;
      node.stdout!.off("data", onOutput);
      return memoryPerTurn(samples);
    },
  };
}

/** Live memory with the most turns running, less the last reading before the first turn ran, per turn running. */
function memoryPerTurn(samples: MemorySample[]): MemoryPerTurn {
  const first = samples.findIndex((sample) => sample.running > 0);
  if (first < 1) throw new Error("no reading of the node before its turns started");
  const idle = samples[first - 1]!;
  const peak = samples.reduce((most, sample) => (sample.running > most.running ? sample : most));
  return { idle, peak, perTurnKb: (peak.liveKb - idle.liveKb) / peak.running };
}
