import type { Prisma } from "@/lib/db/open-database";
import type { BlobStore } from "@/lib/attachments/blob-store";
import { sweepDiscardedAttachments } from "@/lib/attachments/sweep-discarded-attachments";
import { log } from "@/lib/log/logger";
import { pruneOldRecords, type RetentionPolicy } from "./prune-old-records";

export interface RetentionSweep {
  /** No further sweeps; resolves once a sweep in progress has finished its current batch. */
  stop(): Promise<void>;
}

export interface RetentionSweepOptions {
  prisma: Prisma;
  policy: RetentionPolicy;
  /** Uploads never sent are removed, with their files, after `unsentHours`. */
  attachments?: { store: BlobStore; unsentHours: number };
  /** The first sweep, shortly after start-up (not during it). */
  firstRunMs?: number;
  everyMs?: number;
}

/**
 * Every node runs this; pruneOldRecords is safe to run on several at once. The next sweep is
 * scheduled only when the last one has ended, so sweeps of one process never overlap however
 * long one takes. The timers do not keep the process alive.
 */
export function startRetentionSweep({ prisma, policy, attachments, firstRunMs = 60_000, everyMs = 60 * 60_000 }: RetentionSweepOptions): RetentionSweep {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const sweep = async () => {
    try {
      const counts = {
        ...(await pruneOldRecords(prisma, policy, { shouldStop: () => stopped })),
        discardedAttachments: attachments ? await sweepDiscardedAttachments(prisma, attachments.store, { unsentHours: attachments.unsentHours, shouldStop: () => stopped }) : 0,
      };
      if (Object.values(counts).some((count) => count > 0)) log.info("old records deleted (retention)", counts);
    } catch (error) {
      log.error("retention sweep failed; the next one tries again", { error });
    }
  };
  const schedule = (delayMs: number) => {
    timer = setTimeout(() => {
      running = sweep().then(() => {
        if (!stopped) schedule(everyMs);
      });
    }, delayMs);
    timer.unref();
  };
  schedule(firstRunMs);

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
