/** The abort reason of turns ended because their node is shutting down (not a person's Stop). */
export const NODE_SHUTDOWN = "chorus:node-shutdown";

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

  /** Shutdown: every turn here gives its dispatch back for another node to run at once. */
  releaseAll(): void {
    for (const controller of this.controllers.values()) controller.abort(NODE_SHUTDOWN);
  }
}
