import { UNREACHABLE } from "@/components/ui/unreachable";

/** Whether this browser can receive pushes at all (a service worker and the Push API). */
export function pushSupported(): boolean {
  return typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && typeof Notification !== "undefined";
}

/** This browser's subscription, if it has one (the service worker registered earlier). */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The server's answer: null when it took it, else what it said (or that it could not be reached). */
async function tellServer(method: "POST" | "DELETE", body: unknown): Promise<string | null> {
  const response = await fetch("/api/push-subscriptions", { method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) }).catch(() => null);
  if (response?.ok) return null;
  const answer = await response?.json().catch(() => null);
  return answer?.error?.message ?? UNREACHABLE.error.message;
}

/**
 * Registers the service worker, subscribes with the server's VAPID key and hands the
 * subscription to the server; null when done, else why not, in words. A subscription the server
 * refused is undone, so the browser and the server agree.
 */
export async function subscribeBrowser(publicKey: string): Promise<string | null> {
  if ((await Notification.requestPermission()) !== "granted") return "Notifications are blocked for this site: allow them in the browser's settings first.";
  let subscription: PushSubscription;
  try {
    const registration = await navigator.serviceWorker.register("/sw.js", { scope: "/" });
    await navigator.serviceWorker.ready;
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: fromBase64url(publicKey) });
  } catch (error) {
    // The browser's own words: its push service unreachable, push refused in this profile…
    return `This browser could not subscribe (${error instanceof Error ? error.message : String(error)}). Check that it allows notifications for this site, or try again later.`;
  }
  const refused = await tellServer("POST", subscription.toJSON());
  if (refused) await subscription.unsubscribe().catch(() => undefined);
  return refused;
}

/** Stops pushes to this browser: unsubscribed here, forgotten by the server. */
export async function unsubscribeBrowser(): Promise<string | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const { endpoint } = subscription;
  await subscription.unsubscribe().catch(() => undefined);
  return tellServer("DELETE", { endpoint });
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}
