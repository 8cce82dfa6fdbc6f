// Chorus's service worker: Web Push while Chorus is closed (lib/notifications/push-notifier.ts
// sends { title, body, tag, url }). Registered from Settings → Desktop notifications.

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** A Chorus tab the person is looking at: it shows new messages itself, so the push shows nothing. */
async function lookingAtChorus() {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  return windows.some((client) => client.visibilityState === "visible" && client.focused);
}

self.addEventListener("push", (event) => {
  event.waitUntil(
    (async () => {
      let notice;
      try {
        notice = event.data ? event.data.json() : null;
      } catch {
        notice = null;
      }
      if (!notice || typeof notice.title !== "string" || (await lookingAtChorus())) return;
      // One notification per conversation (its tag): a newer one replaces it.
      await self.registration.showNotification(notice.title, { body: notice.body, tag: notice.tag, data: { url: notice.url } });
    })(),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data?.url ?? "/", self.location.origin);
  // Only Chorus's own pages: a push's data never sends the person elsewhere.
  const target = url.origin === self.location.origin ? url.href : self.location.origin;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
      const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
      if (open) {
        await open.focus();
        // A tab this worker does not control cannot be navigated: a new one opens the message.
        const navigated = await open.navigate(target).catch(() => null);
        if (navigated) return;
      }
      await self.clients.openWindow(target);
    })(),
  );
});
