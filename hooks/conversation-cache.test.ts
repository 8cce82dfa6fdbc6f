import { describe, expect, it } from "vitest";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { applyActivity, applyConversationUpdate, applyReadUpdate, dropConversation } from "./conversation-cache";

const general: ConversationSummary = {
  id: "c1", projectId: "p", type: "group", key: "global", title: "general",
  topic: null, archived: false, isPrivate: false, createdByUserId: null,
  lastSeq: 10, lastReadSeq: 10, unread: 0, mentions: 0, peer: null, notify: "mentions", muted: false,
};
const activity = (seq: number, authorUserId: string, mentionedUserIds: string[] = []) => ({ conversationId: "c1", seq, authorUserId, authorName: authorUserId, preview: "hello", mentionedUserIds });

describe("sidebar cache", () => {
  it("counts others' messages as unread and mentions of me separately", () => {
    let list = applyActivity([general], activity(11, "bob"), "me");
    list = applyActivity(list, activity(12, "bob", ["me"]), "me");
    expect(list![0]).toMatchObject({ lastSeq: 12, unread: 2, mentions: 1 });
  });

  it("never counts my own messages, and my message marks what came before as read", () => {
    let list = applyActivity([general], activity(11, "bob"), "me");
    list = applyActivity(list, activity(12, "me", ["me"]), "me");
    expect(list![0]).toMatchObject({ lastSeq: 12, lastReadSeq: 12, unread: 0, mentions: 0 });
  });

  it("ignores an event it has already counted (redelivery)", () => {
    const once = applyActivity([general], activity(11, "bob", ["me"]), "me");
    expect(applyActivity(once, activity(11, "bob", ["me"]), "me")).toEqual(once);
  });

  it("takes the server's counts on a read update", () => {
    const list = applyActivity([general], activity(11, "bob"), "me");
    expect(applyReadUpdate(list, { ...general, lastSeq: 11, lastReadSeq: 11 })![0]).toMatchObject({ unread: 0, lastReadSeq: 11 });
  });

  it("follows a rename, a topic and an archive without touching the counts", () => {
    const list = applyActivity([general, { ...general, id: "c2" }], activity(11, "bob"), "me");
    const updated = applyConversationUpdate(list, { conversationId: "c1", title: "ops", topic: "Deploys", archived: true });
    expect(updated![0]).toEqual({ ...list![0], title: "ops", topic: "Deploys", archived: true });
    expect(updated![1]).toBe(list![1]);
  });

  it("drops a conversation its person left or was removed from", () => {
    expect(dropConversation([general, { ...general, id: "c2" }], "c1")!.map((conversation) => conversation.id)).toEqual(["c2"]);
  });
});
