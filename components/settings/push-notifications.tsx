"use client";

import { useEffect, useId, useState } from "react";
import { currentSubscription, pushSupported, subscribeBrowser, unsubscribeBrowser } from "./browser-push";

type State = { on: boolean; busy: boolean; said: string; failed: boolean };

/**
 * "Also notify me when Chorus is closed" (Web Push): this browser subscribes with the server's
 * VAPID key and the server pushes what a hidden tab would show. Null key: push is off on the server.
 */
export function PushNotifications({ publicKey }: { publicKey: string | null }) {
  const id = useId();
  const [state, setState] = useState<State | null>(null);

  useEffect(() => {
    if (!publicKey || !pushSupported()) return;
    let stopped = false;
    void currentSubscription()
      .catch(() => null)
      .then((found) => !stopped && setState({ on: Boolean(found), busy: false, said: "", failed: false }));
    return () => {
      stopped = true;
    };
  }, [publicKey]);

  if (!publicKey) return <p className="text-sm text-muted-strong">Notifications while Chorus is closed are off on this server.</p>;
  if (!state) return pushSupported() ? null : <p className="text-sm text-muted-strong">This browser cannot notify you while Chorus is closed.</p>;

  const change = async (on: boolean) => {
    setState({ ...state, busy: true, said: on ? "Turning on…" : "Turning off…", failed: false });
    const problem = on ? await subscribeBrowser(publicKey) : await unsubscribeBrowser();
    const done = on ? "On: this browser shows them even when Chorus is closed." : "Off: only an open Chorus tab tells you.";
    setState({ on: problem ? !on : on, busy: false, said: problem ?? done, failed: Boolean(problem) });
  };

  return (
    <div className="space-y-1">
      <label className="flex items-start gap-2 text-sm">
        <input type="checkbox" checked={state.on} disabled={state.busy} onChange={(event) => void change(event.target.checked)} aria-describedby={`${id}-said`} className="mt-0.5 h-4 w-4 shrink-0" />
        Also notify me when Chorus is closed
      </label>
      {/* Announced as it changes; the permission's line above is the section's status. */}
      <p id={`${id}-said`} aria-live="polite" className={`text-sm ${state.failed ? "text-danger" : "text-muted-strong"}`}>
        {state.said}
      </p>
    </div>
  );
}
