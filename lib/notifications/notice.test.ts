import { describe, expect, it } from "vitest";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { defaultNotifyLevel } from "@/lib/conversations/notification-level";
import type { ConversationActivity } from "@/lib/realtime/events";
import { noticeFor, noticeUrl, type NoticeConversation } from "./notice";

const conversation = (type: ConversationSummary["type"], title: string, chosen: Partial<NoticeConversation> = {}): NoticeConversation => ({
  id: `c-${type}`,
  type,
  title,
  notify: defaultNotifyLevel(type),
  muted: false,
  ...chosen,
});
const activity = (conversationId: string, change: Partial<ConversationActivity> = {}): ConversationActivity => ({
  conversationId,
  seq: 4,
  authorUserId: "ann",
  authorName: "Ann",
  preview: "Can you look at this?",
  mentionedUserIds: [],
  ...change,
});
/** An agent's answer in a conversation, to `asker`'s question. */
const answer = (conversationId: string, asker: string) => activity(conversationId, { authorUserId: null, authorName: "Toby", preview: "Here is the plan.", answersUserId: asker });

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

  it("tells of an agent's answer to one's own question in a channel, as a mention would", () => {
    expect(noticeFor(answer(general.id, "me"), { me: "me", conversation: general })).toEqual({ title: "Toby answered you in #general", body: "Here is the plan.", tag: "chorus:c-group" });
    expect(noticeFor(answer(chat.id, "me"), { me: "me", conversation: chat })?.title).toBe("Toby answered you");
  });

  it("tells nothing of an agent's answer to someone else's question in a channel", () => {
    expect(noticeFor(answer(general.id, "someone-else"), { me: "me", conversation: general })).toBeNull();
  });

  it("tells nothing of an answer to one's question where the person chose nothing or muted", () => {
    expect(noticeFor(answer(general.id, "me"), { me: "me", conversation: { ...general, notify: "nothing" } })).toBeNull();
    expect(noticeFor(answer(general.id, "me"), { me: "me", conversation: { ...general, muted: true } })).toBeNull();
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

  it("leads to the message in its conversation", () => {
    expect(noticeUrl(activity("c-1"))).toBe("/c/c-1?at=4");
  });
});
