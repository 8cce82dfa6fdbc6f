import { randomUUID } from "node:crypto";
import webpush from "web-push";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { DELETE, POST } from "@/app/api/push-subscriptions/route";
import { notificationsSchema } from "@/lib/conversations/notification-level";
import { sendMessage } from "@/lib/conversations/send-message";
import { setNotifications } from "@/lib/conversations/set-notifications";
import { createPushNotifier, PUSH_TTL_S, withWebPush, type PushNotifier } from "@/lib/notifications/push-notifier";
import { createProjectWithChannel } from "../support/fixtures";
import { LocalPushService, PushKeys } from "../support/push-endpoint";
import { TestApp, type TestUser } from "../support/test-app";

/** Web Push's sending side against a push service the test runs, and the subscriptions' endpoint. */
describe("web push", () => {
  let app: TestApp;
  let service: LocalPushService;
  let push: PushNotifier;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let channelId: string;
  const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:admin@example.test" };
  const handles = new Map<string, string>();

  const call = (handler: (request: Request) => Promise<Response>, method: "POST" | "DELETE", user: TestUser, body: unknown) =>
    handler(new Request(`${app.url}/api/push-subscriptions`, { method, headers: { cookie: user.cookie, "content-type": "application/json" }, body: JSON.stringify(body) }));
  const subscribe = async (user: TestUser, name: string, keys = new PushKeys()) => {
    const response = await call(POST, "POST", user, { endpoint: service.endpoint(name), keys: keys.toJSON() });
    expect(response.status).toBe(201);
    return keys;
  };
  const post = async (user: TestUser, content: string) => {
    await sendMessage({ prisma: app.prisma, publisher: app.runtime.realtime }, { userId: user.id, input: { conversationId: channelId, clientId: randomUUID(), content } });
    await push.settled();
  };

  beforeAll(async () => {
    service = await LocalPushService.start();
    app = await TestApp.start();
    channelId = (await createProjectWithChannel(app.prisma)).channel.id;
    [alice, bob, carol] = [await app.signUp("Alice"), await app.signUp("Bob"), await app.signUp("Carol")];
    for (const user of [alice, bob, carol]) handles.set(user.id, (await app.prisma.user.findUniqueOrThrow({ where: { id: user.id } })).handle);
    app.runtime.webPush = vapid;
    push = createPushNotifier({ prisma: app.prisma, keys: vapid });
    app.runtime.realtime = withWebPush(app.runtime.realtime, push);
  });
  afterAll(async () => {
    await app.close();
    await service.close();
  });
  beforeEach(async () => {
    service.received.length = 0;
    await app.prisma.pushSubscription.deleteMany();
  });

  it("pushes a mention to the mentioned person's browser: one encrypted POST, signed with VAPID, with a TTL", async () => {
    const keys = await subscribe(bob, "bob");
    await subscribe(carol, "carol");

    await post(alice, `@${handles.get(bob.id)} can you review the release notes?`);

    expect(service.to("carol")).toHaveLength(0);
    const [received, ...more] = service.to("bob");
    expect(more).toHaveLength(0);
    expect(received!.headers).toMatchObject({ "content-encoding": "aes128gcm", ttl: String(PUSH_TTL_S), authorization: expect.stringMatching(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${vapid.publicKey}$`)) });
    const notice = JSON.parse(keys.decrypt(received!.body));
    const { seq } = await app.prisma.message.findFirstOrThrow({ where: { conversationId: channelId }, orderBy: { seq: "desc" } });
    expect(notice).toEqual({ title: "Alice mentioned you in #general", body: `@${handles.get(bob.id)} can you review the release notes?`, tag: `chorus:${channelId}`, url: `/c/${channelId}?at=${seq}` });
  });

  it("pushes to each of a person's browsers, and never to the author", async () => {
    await subscribe(bob, "bob-laptop");
    await subscribe(bob, "bob-phone");
    await subscribe(alice, "alice");

    await post(alice, `@${handles.get(bob.id)} and to your phone`);

    expect(service.to("bob-laptop")).toHaveLength(1);
    expect(service.to("bob-phone")).toHaveLength(1);
    expect(service.to("alice")).toHaveLength(0);
  });

  it("deletes a subscription the push service says is gone (410)", async () => {
    await subscribe(bob, "gone");
    service.answer("gone", 410);

    await post(alice, `@${handles.get(bob.id)} still there?`);

    expect(service.to("gone")).toHaveLength(1);
    expect(await app.prisma.pushSubscription.count({ where: { userId: bob.id } })).toBe(0);
  });

  it("sends nothing for a muted conversation, nor for chatter that mentions no one", async () => {
    await subscribe(carol, "carol");
    await post(alice, "chatter for the whole channel");
    expect(service.received).toHaveLength(0);

    await setNotifications({ prisma: app.prisma, publisher: app.runtime.realtime }, { userId: carol.id, conversationId: channelId, input: notificationsSchema.parse({ notify: "mentions", muted: true }) });
    await post(alice, `@${handles.get(carol.id)} you muted this`);

    expect(service.received).toHaveLength(0);
    await setNotifications({ prisma: app.prisma, publisher: app.runtime.realtime }, { userId: carol.id, conversationId: channelId, input: notificationsSchema.parse({ notify: "mentions", muted: false }) });
  });

  it("refuses a subscription that is not a push service's https address or whose keys are wrong, saving nothing", async () => {
    const keys = new PushKeys().toJSON();
    const refused = async (body: unknown) => {
      const response = await call(POST, "POST", bob, body);
      expect(response.status).toBe(400);
      return ((await response.json()) as { error: { fields: Record<string, string> } }).error.fields;
    };
    expect(await refused({ endpoint: "http://push.example.com/send/1", keys })).toEqual({ endpoint: "endpoint must be an https address of a browser's push service." });
    expect(await refused({ endpoint: "https://169.254.169.254/latest", keys })).toHaveProperty("endpoint");
    expect(await refused({ endpoint: "https://push.example.com/send/1", keys: { ...keys, p256dh: "not base64url!" } })).toEqual({ "keys.p256dh": "keys.p256dh must be base64url." });
    expect(await refused({ endpoint: "https://push.example.com/send/1", keys: { ...keys, auth: Buffer.alloc(8).toString("base64url") } })).toEqual({ "keys.auth": "keys.auth must be 16 bytes." });
    expect(await app.prisma.pushSubscription.count()).toBe(0);
  });

  it("unsubscribes only the person's own browser", async () => {
    await subscribe(bob, "bob");
    expect(await (await call(DELETE, "DELETE", alice, { endpoint: service.endpoint("bob") })).json()).toEqual({ data: { removed: false } });
    expect(await (await call(DELETE, "DELETE", bob, { endpoint: service.endpoint("bob") })).json()).toEqual({ data: { removed: true } });

    await post(alice, `@${handles.get(bob.id)} gone quiet`);
    expect(service.received).toHaveLength(0);
  });
});
