"use client";

import { useReducer, useSyncExternalStore } from "react";
import { SettingsSection } from "./form-parts";
import { PushNotifications } from "./push-notifications";

type Permission = NotificationPermission | "unsupported";

const said: Record<Permission, string> = {
  granted: "On in this browser: mentions of you, direct messages and agents' answers in your chats with them show while Chorus's tab is hidden.",
  default: "Off in this browser. Turn them on to hear of mentions of you, direct messages and agents' answers while Chorus's tab is hidden.",
  denied: "Blocked in this browser: allow notifications for this site in the browser's settings, then reload.",
  unsupported: "This browser cannot show notifications.",
};

const current = (): Permission => (typeof Notification === "undefined" ? "unsupported" : Notification.permission);

/** A change made in the browser's own settings while the page is open. */
function subscribe(onChange: () => void): () => void {
  let status: PermissionStatus | undefined;
  let stopped = false;
  void navigator.permissions
    ?.query({ name: "notifications" })
    .then((found) => {
      if (stopped) return;
      status = found;
      found.addEventListener("change", onChange);
    })
    .catch(() => undefined);
  return () => {
    stopped = true;
    status?.removeEventListener("change", onChange);
  };
}

/**
 * Desktop notifications in this browser: asked for only when the person presses the button (or
 * turns on those that come while Chorus is closed, with the server's VAPID key).
 */
export function DesktopNotifications({ pushPublicKey }: { pushPublicKey: string | null }) {
  // The server cannot know: nothing is said until the page runs in the browser.
  const permission = useSyncExternalStore(subscribe, current, () => null);
  const [, answered] = useReducer((count: number) => count + 1, 0);
  const ask = async () => {
    await Notification.requestPermission();
    answered();
  };

  return (
    <SettingsSection id="notifications" title="Desktop notifications">
      <p role="status" className="text-sm text-muted-strong">
        {permission ? said[permission] : ""}
      </p>
      {permission === "default" && (
        <button type="button" onClick={() => void ask()} className="rounded-lg bg-brand-600 px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-700">
          Turn on desktop notifications
        </button>
      )}
      {permission && permission !== "denied" && <PushNotifications publicKey={pushPublicKey} />}
    </SettingsSection>
  );
}
