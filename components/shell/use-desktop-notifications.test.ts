import { describe, expect, it } from "vitest";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { defaultNotifyLevel } from "@/lib/conversations/notification-level";
import type { ConversationActivity } from "@/lib/realtime/events";
import { noticeFor } from "./use-desktop-notifications";

const conversation = (type: ConversationSummary["type"], title: string, chosen: Partial<ConversationSummary> = {}) =>
  ({ id: `c-${type}`, type, title, notify: defaultNotifyLevel(type), muted: false, ...chosen }) as ConversationSummary;
const activity = (conversationId: string, change: Partial<ConversationActivity> = {}): ConversationActivity => ({
  conversationId,
  seq: 4,
  authorUserId: "ann",
  authorName: "Ann",
  preview: "Can you look at this?",
  mentionedUserIds: [],
  ...change,
});

describe("noticeFor", () => {
  const general = conversation("group", "general");
  const dm = conversation("dm", "Ann");
  const chat = conversation("agent_dm", "Toby");

  it("tells of a mention, a direct message, and an agent's answer in one's chat with it", () => {
    expect(noticeFor(activity(general.id, { mentionedUserIds: ["me"] }), { me: "me", conversation: general })).toEqual({
      title: "Ann mentioned you in #general",
      body: "Can you look at this?",
      tag: "chorus:c-group",
    });
    expect(noticeFor(activity(dm.id), { me: "me", conversation: dm })?.title).toBe("Ann sent you a message");
    expect(noticeFor(activity(chat.id, { authorUserId: null, authorName: "Toby" }), { me: "me", conversation: chat })?.title).toBe("Toby answered you");
  });

  it("tells nothing of one's own messages, of a channel's chatter, or of a conversation it does not know", () => {
    expect(noticeFor(activity(dm.id, { authorUserId: "me" }), { me: "me", conversation: dm })).toBeNull();
    expect(noticeFor(activity(general.id, { mentionedUserIds: ["someone-else"] }), { me: "me", conversation: general })).toBeNull();
    expect(noticeFor(activity("unknown", { mentionedUserIds: ["me"] }), { me: "me", conversation: undefined })).toBeNull();
  });

  it("follows the person's choice for the conversation: every message, nothing, or muted", () => {
    const chatty = conversation("group", "general", { notify: "all" });
    expect(noticeFor(activity(chatty.id), { me: "me", conversation: chatty })?.title).toBe("Ann in #general");
    expect(noticeFor(activity(chatty.id, { authorUserId: "me" }), { me: "me", conversation: chatty })).toBeNull();
    const quiet = conversation("dm", "Ann", { notify: "nothing" });
    expect(noticeFor(activity(quiet.id, { mentionedUserIds: ["me"] }), { me: "me", conversation: quiet })).toBeNull();
    const mentionsOnly = conversation("dm", "Ann", { notify: "mentions" });
    expect(noticeFor(activity(mentionsOnly.id), { me: "me", conversation: mentionsOnly })).toBeNull();
    expect(noticeFor(activity(mentionsOnly.id, { mentionedUserIds: ["me"] }), { me: "me", conversation: mentionsOnly })?.title).toBe("Ann mentioned you");
    const muted = conversation("group", "general", { notify: "all", muted: true });
    expect(noticeFor(activity(muted.id, { mentionedUserIds: ["me"] }), { me: "me", conversation: muted })).toBeNull();
  });
});
