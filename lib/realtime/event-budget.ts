/**
 * How many events one socket may send: a burst of `capacity`, refilled at `perSecond`. A client
 * that joins a thousand rooms in a second gets `rate_limited` acks instead of a thousand queries.
 */
export class EventBudget {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly capacity = 60,
    private readonly perSecond = 20,
    now = Date.now(),
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** True when the event may run; a refused event costs nothing. */
  take(now = Date.now()): boolean {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.updatedAt) / 1000) * this.perSecond);
    this.updatedAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
