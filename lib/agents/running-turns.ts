/**
 * The turns running in this process, so Stop can cancel one. Stop requests reach every node
 * (Socket.IO's server-side emit), and the node running the turn aborts it.
 */
export class RunningTurns {
  private readonly controllers = new Map<string, AbortController>();

  start(dispatchId: string): AbortSignal {
    const controller = new AbortController();
    this.controllers.set(dispatchId, controller);
    return controller.signal;
  }

  finish(dispatchId: string): void {
    this.controllers.delete(dispatchId);
  }

  /** True when the turn runs here and was stopped. */
  stop(dispatchId: string): boolean {
    const controller = this.controllers.get(dispatchId);
    controller?.abort();
    return Boolean(controller);
  }
}
