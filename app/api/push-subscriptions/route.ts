import type { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { jsonResponse, readJsonBody, WithStatus } from "@/lib/http/json-response";
import { pushEndpointSchema, pushSubscriptionSchema, removePushSubscription, savePushSubscription } from "@/lib/notifications/push-subscriptions";
import { requireApiUser } from "@/lib/session/api-user";

/**
 * This browser shows the caller's notifications while Chorus is closed:
 * `POST /api/push-subscriptions` with the browser's `PushSubscription` as JSON (`{ endpoint, keys: { p256dh, auth } }`).
 */
export async function POST(request: Request) {
  return jsonResponse("push-subscribe", async () => {
    const { runtime, user } = await requireApiUser(request);
    if (!runtime.webPush) throw new AppError("conflict", "Notifications while Chorus is closed are off on this server: an admin must set its VAPID keys.");
    const body = await readJsonBody(request, '{"endpoint": "https://…", "keys": {"p256dh": "…", "auth": "…"}}');
    const input = parse(pushSubscriptionSchema({ allowLocalHttp: runtime.env.NODE_ENV === "test" }), body);
    return new WithStatus(await savePushSubscription(runtime.db.prisma, { userId: user.id, input }), 201);
  });
}

/** This browser stops: `DELETE /api/push-subscriptions` with `{ endpoint }`. */
export async function DELETE(request: Request) {
  return jsonResponse("push-unsubscribe", async () => {
    const { runtime, user } = await requireApiUser(request);
    const { endpoint } = parse(pushEndpointSchema, await readJsonBody(request, '{"endpoint": "https://…"}'));
    return removePushSubscription(runtime.db.prisma, { userId: user.id, endpoint });
  });
}

/** The body as the schema reads it, or a refusal naming each field's problem. */
function parse<Schema extends z.ZodType>(schema: Schema, body: unknown): z.infer<Schema> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const fields: Record<string, string> = {};
  for (const issue of parsed.error.issues) fields[issue.path.join(".") || "body"] ??= issue.message;
  throw new AppError("bad_request", parsed.error.issues[0]?.message ?? "Invalid subscription.", fields);
}
