"use client";

import Link from "next/link";
import { useSocketState, type SocketStatus } from "@/hooks/use-socket";

const words: Record<Exclude<SocketStatus, "connected" | "refused">, string> = {
  connecting: "Connecting…",
  reconnecting: "Reconnecting… messages will catch up.",
  unavailable: "Server unavailable. Retrying… messages will catch up.",
  "signed-out": "Signed out.",
};

/** Says when live updates are off and why; silent while connected. */
export function ConnectionBanner() {
  const { status, detail } = useSocketState();
  if (status === "connected") return null;
  const text = status === "refused" ? (detail ?? "Live updates were refused.") : words[status];
  return (
    <div role="status" className="bg-amber-100 px-4 py-1.5 text-center text-sm text-amber-950 dark:bg-amber-900/60 dark:text-amber-50">
      {text}
      {status === "signed-out" && (
        <>
          {" "}
          <Link href="/sign-in" className="font-semibold underline">
            Sign in again
          </Link>
        </>
      )}
    </div>
  );
}
