import type { Prisma } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { enqueueIdleSessions } from "./end-session";

export interface IdleSessionSweep {
  stop(): Promise<void>;
}

/**
 * Ends the sessions of conversations quiet for `idleMinutes`: each sweep is one statement that
 * closes them and queues their jobs (see enqueueIdleSessions), so one conversation's trouble
 * never skips the others. A sweep never starts while the previous one runs.
 */
export function startIdleSessionSweep({ prisma, idleMinutes, everyMs = Math.min(60_000, (idleMinutes * 60_000) / 2), onQueued }: { prisma: Prisma; idleMinutes: number; everyMs?: number; onQueued(ids: string[]): void }): IdleSessionSweep {
  let sweeping: Promise<void> | null = null;
  const sweep = () => {
    sweeping ??= enqueueIdleSessions(prisma, { idleMinutes })
      .then((ids) => ids.length > 0 && onQueued(ids))
      .catch((error: unknown) => log.error("idle session sweep failed", { error }))
      .then(() => void (sweeping = null));
  };
  const timer = setInterval(sweep, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await sweeping;
    },
  };
}
