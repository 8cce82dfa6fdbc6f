import { log } from "./logger";

/** What React's stream renderer says when the browser went away mid-response (it navigated on). */
const CLIENT_WENT_AWAY = "The destination stream errored while writing data.";

export function isClientAbortNoise(args: unknown[]): boolean {
  return args.some((arg) => (arg instanceof Error ? arg.message : arg) === CLIENT_WENT_AWAY || (arg instanceof Error && (arg.cause as Error | undefined)?.message === CLIENT_WENT_AWAY));
}

/**
 * A person clicking to another page while the previous one still streams is not an error: React
 * cancels that render and Next prints its reason through console.error. It is logged at debug
 * level instead; every other console.error passes through unchanged.
 */
export function quietClientAborts(): void {
  const original = console.error.bind(console);
  console.error = (...args: unknown[]) => {
    if (isClientAbortNoise(args)) log.debug("a page render was cancelled: the browser navigated away");
    else original(...args);
  };
}
