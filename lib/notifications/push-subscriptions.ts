import { isIP } from "node:net";
import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";

/** base64url (padding tolerated) that decodes to `bytes` bytes. */
const base64url = (bytes: number, what: string) =>
  z
    .string({ error: `${what} is missing.` })
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, { error: `${what} must be base64url.` })
    .refine((value) => Buffer.from(value, "base64url").length === bytes, { error: `${what} must be ${bytes} bytes.` });

/** A host no browser's push service is at: an address, this machine, or a name private to a network. */
function privateHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return isIP(host) !== 0 || host === "localhost" || /\.(localhost|local|internal|lan|home\.arpa)$/.test(host) || !host.includes(".");
}

const localHttp = (url: URL) => url.protocol === "http:" && (url.hostname === "127.0.0.1" || url.hostname === "localhost");

/**
 * A browser's push subscription (`PushSubscription.toJSON()`). The server POSTs to its endpoint,
 * so it must be a push service's https address (a named public host, no credentials); `allowLocalHttp`
 * lets the tests' push service on this machine in.
 */
export function pushSubscriptionSchema({ allowLocalHttp }: { allowLocalHttp: boolean }) {
  return z.object({
    endpoint: z
      .url({ error: "endpoint must be the push service's URL." })
      .max(2048, { error: "endpoint is too long for a push service's URL." })
      .refine(
        (value) => {
          const url = new URL(value);
          if (allowLocalHttp && localHttp(url)) return true;
          return url.protocol === "https:" && !url.username && !url.password && !privateHost(url.hostname);
        },
        { error: "endpoint must be an https address of a browser's push service." },
      ),
    keys: z.object(
      {
        // An uncompressed P-256 public key, and the 16-byte auth secret.
        p256dh: base64url(65, "keys.p256dh"),
        auth: base64url(16, "keys.auth"),
      },
      { error: "keys (p256dh and auth) are missing." },
    ),
  });
}
export type PushSubscriptionInput = z.infer<ReturnType<typeof pushSubscriptionSchema>>;

export const pushEndpointSchema = z.object({ endpoint: z.string({ error: "endpoint is missing." }).min(1, { error: "endpoint is missing." }).max(2048) });

/**
 * This browser now shows the person's notifications while Chorus is closed. An endpoint is one
 * browser's: subscribing again there (the keys changed, or someone else signed in) replaces it.
 */
export async function savePushSubscription(prisma: Prisma, { userId, input }: { userId: string; input: PushSubscriptionInput }): Promise<{ saved: true }> {
  const { endpoint, keys } = input;
  await prisma.pushSubscription.upsert({
    where: { endpoint },
    create: { userId, endpoint, p256dh: keys.p256dh, auth: keys.auth },
    update: { userId, p256dh: keys.p256dh, auth: keys.auth, createdAt: new Date() },
  });
  return { saved: true };
}

/** This browser stops: only the person's own subscription is removed. */
export async function removePushSubscription(prisma: Prisma, { userId, endpoint }: { userId: string; endpoint: string }): Promise<{ removed: boolean }> {
  const { count } = await prisma.pushSubscription.deleteMany({ where: { userId, endpoint } });
  return { removed: count > 0 };
}
