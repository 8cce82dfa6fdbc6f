import { log } from "@/lib/log/logger";

/** Past this, shutdown is stuck: exit non-zero so an orchestrator sees it. */
const SHUTDOWN_GUARD_MS = 10_000;

/** SIGTERM / SIGINT: close gracefully once, then exit 0 (1 if closing failed or hung). `close` names each stage it enters, so a hang says where. */
export function exitOnSignals(close: (stage: (name: string) => void) => Promise<void>): void {
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const started = Date.now();
    let stuckIn = "starting to close";
    log.info("shutting down", { signal });
    setTimeout(() => {
      log.error("shutdown took too long: exiting anyway", { afterMs: SHUTDOWN_GUARD_MS, stuckIn });
      process.exit(1);
    }, SHUTDOWN_GUARD_MS).unref();
    try {
      await close((name) => (stuckIn = name));
      log.info("stopped", { signal, tookMs: Date.now() - started });
      process.exit(0);
    } catch (error) {
      log.error("shutdown failed", { error });
      process.exit(1);
    }
  };
  process.on("SIGINT", () => void shutdown("SIGINT"));
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
}
