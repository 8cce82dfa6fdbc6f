/**
 * The turns running in this process, so Stop can cancel one. Stop requests reach every node
 * (Socket.IO's server-side emit), and the node running the turn aborts it.
 */
export class RunningTurns {
  private readonly controllers = new Map<string, AbortController>();
  /** Where each turn is, with since when: what a turn that does not stop was waiting on. */
  private readonly phases = new Map<string, { phase: string; since: number }>();

  start(dispatchId: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(dispatchId, controller);
    this.enter(dispatchId, "preparing");
    return controller.signal;
  }

  enter(dispatchId: string, phase: string): void {
    this.phases.set(dispatchId, { phase, since: Date.now() });
  }

  phaseOf(dispatchId: string): string | undefined {
    const entry = this.phases.get(dispatchId);
    return entry && `${entry.phase} for ${Date.now() - entry.since} ms`;
  }

  finish(dispatchId: string): void {
    this.controllers.delete(dispatchId);
    this.phases.delete(dispatchId);
  }

  /** True when the turn runs here and was stopped. */
  stop(dispatchId: string): boolean {
    const controller = this.controllers.get(dispatchId);
    controller?.abort();
    return Boolean(controller);
  }
}
