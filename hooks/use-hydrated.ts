import { useSyncExternalStore } from "react";

const never = () => () => {};

/**
 * False while React renders on the server and while it hydrates what the server wrote; true from
 * then on, and at once in a tree rendered in the browser (a client-side navigation).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
