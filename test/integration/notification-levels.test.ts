import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getConversation } from "@/lib/conversations/list-conversations";
import { notificationsSchema } from "@/lib/conversations/notification-level";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { setNotifications } from "@/lib/conversations/set-notifications";
import { createProjectWithChannel } from "../support/fixtures";
import { nextEvent, TestApp, type TestUser } from "../support/test-app";

/** Each person's notifications per conversation: which messages tell them, and muted. */
describe("notification levels", () => {
  let app: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let channelId: string;
  let dmId: string;
  const set = (user: TestUser, conversationId: string, input: unknown) =>
    setNotifications({ prisma: app.prisma, publisher: app.runtime.realtime }, { userId: user.id, conversationId, input: notificationsSchema.parse(input) });
  const seenBy = async (user: TestUser, conversationId: string) => {
    const found = await getConversation(app.prisma, { userId: user.id, conversationId });
    return found && { notify: found.notify, muted: found.muted };
  };

  beforeAll(async () => {
    app = await TestApp.start();
    const { project, channel } = await createProjectWithChannel(app.prisma);
    channelId = channel.id;
    [alice, bob] = [await app.signUp("Alice"), await app.signUp("Bob")];
    await app.prisma.participant.createMany({ data: [alice, bob].map((user) => ({ conversationId: channelId, userId: user.id })), skipDuplicates: true });
    dmId = (await openDirectMessage(app.prisma, { userId: alice.id, projectId: project.id, otherUserId: bob.id })).id;
  });
  afterAll(() => app.close());

  it("starts at mentions in a channel and every message in a direct message, unmuted", async () => {
    expect(await seenBy(alice, channelId)).toEqual({ notify: "mentions", muted: false });
    expect(await seenBy(alice, dmId)).toEqual({ notify: "all", muted: false });
  });

  it("keeps one person's choice for them alone, and tells every tab of theirs", async () => {
    const otherTab = await app.connect(alice);
    const told = nextEvent(otherTab, "read:updated");

    const saved = await set(alice, channelId, { notify: "nothing", muted: true });

    expect(saved).toMatchObject({ id: channelId, notify: "nothing", muted: true });
    expect(await told).toMatchObject({ id: channelId, notify: "nothing", muted: true });
    expect(await seenBy(alice, channelId)).toEqual({ notify: "nothing", muted: true });
    expect(await seenBy(bob, channelId)).toEqual({ notify: "mentions", muted: false });
  });

  it("refuses a level that does not exist, and a conversation the person is not in", async () => {
    expect(notificationsSchema.safeParse({ notify: "loud", muted: false }).error?.issues[0]?.message).toBe("Choose all messages, mentions only or nothing.");
    const { channel: elsewhere } = await createProjectWithChannel(app.prisma, "elsewhere");
    await expect(set(bob, elsewhere.id, { notify: "all", muted: false })).rejects.toMatchObject({ code: "not_found" });
  });
});
