"use client";

import { useSocketState } from "@/hooks/use-socket";

/** Says when live updates are off and why; silent while connected. */
export function ConnectionBanner() {
  const { status, error } = useSocketState();
  if (status === "connected") return null;
  const text = error ?? (status === "connecting" ? "Connecting…" : "Reconnecting… messages will catch up.");
  return (
    <div role="status" className="bg-amber-100 px-4 py-1.5 text-center text-sm text-amber-900 dark:bg-amber-900/40 dark:text-amber-100">
      {text}
    </div>
  );
}
