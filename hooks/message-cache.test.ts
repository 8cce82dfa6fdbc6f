import { describe, expect, it } from "vitest";
import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import { changeWatermark, flattenMessages, mergeMessages, updateMessages, withOlderPage, type MessagesData } from "./message-cache";

const message = (seq: number, change: Partial<MessageDto> = {}): MessageDto => ({
  id: `m${seq}`,
  conversationId: "c",
  seq,
  clientId: null,
  role: "user",
  content: `text ${seq}`,
  metadata: { isHandoffSummary: false, isToolResult: false, timestamp: "2026-01-01T00:00:00.000Z" },
  author: { kind: "user", id: "u1", name: "Ann", color: null, avatarUrl: null },
  createdAt: "2026-01-01T00:00:00.000Z",
  ...unchangedMessage,
  ...change,
});
const data = (...pages: { messages: MessageDto[]; lastChangeSeq: number }[]): MessagesData => ({ pages: pages.map((page) => ({ nextBeforeSeq: null, ...page })), pageParams: pages.map(() => undefined) });

describe("message cache", () => {
  it("keeps the copy with the later change, wherever it is held, and never an older one", () => {
    const held = data({ messages: [message(3), message(2)], lastChangeSeq: 0 }, { messages: [message(1)], lastChangeSeq: 0 });
    const edited = mergeMessages(held, [message(1, { content: "edited", changeSeq: 2 })]);
    expect(flattenMessages(edited).map((each) => each.content)).toEqual(["edited", "text 2", "text 3"]);
    const stale = mergeMessages(edited, [message(1, { content: "older edit", changeSeq: 1 })]);
    expect(stale).toBe(edited);
  });

  it("an older page arriving after live messages were merged keeps them, and is added once", () => {
    const asked = data({ messages: [message(3), message(2)], lastChangeSeq: 0 });
    asked.pages[0]!.nextBeforeSeq = 2;
    const live = mergeMessages(asked, [message(4), message(5)]);
    const older = { messages: [message(1)], nextBeforeSeq: null, lastChangeSeq: 0 };
    const loaded = withOlderPage(live, 2, older);
    expect(flattenMessages(loaded).map((each) => each.seq)).toEqual([1, 2, 3, 4, 5]);
    expect(loaded!.pageParams).toEqual([undefined, 2]);
    // The same page answered twice (two requests raced) is not added again.
    expect(withOlderPage(loaded, 2, older)).toBe(loaded);
  });

  it("updates only messages held: a change to a message of a page not loaded is not added", () => {
    const held = data({ messages: [message(5)], lastChangeSeq: 3 });
    expect(updateMessages(held, [message(1, { changeSeq: 4 })])).toEqual(held);
  });

  it("a reply's quote follows the quoted message's edit and deletion", () => {
    const quote = { id: "m1", seq: 1, authorName: "Ann", excerpt: "text 1", deleted: false };
    const held = data({ messages: [message(2, { replyTo: quote }), message(1)], lastChangeSeq: 0 });
    const deleted = updateMessages(held, [message(1, { content: "", deleted: { at: "2026-01-01T00:00:00.000Z", byAdmin: false }, changeSeq: 1 })]);
    expect(flattenMessages(deleted).find((each) => each.id === "m2")!.replyTo).toEqual({ ...quote, excerpt: "", deleted: true });
  });

  it("takes a reaction's copy of the message whole: text from an edit missed while away comes with it", () => {
    const held = data({ messages: [message(1, { content: "before the edit", changeSeq: 2 })], lastChangeSeq: 2 });
    const reactions = [{ emoji: "👍", users: [{ id: "u2", name: "Bob" }] }];
    // Edited at change 5 (missed), reacted to at change 6 (heard): the reaction brings the message as it is now.
    const reacted = updateMessages(held, [message(1, { content: "after the edit", reactions, changeSeq: 6 })]);
    expect(flattenMessages(reacted)[0]).toMatchObject({ content: "after the edit", reactions, changeSeq: 6 });
    // An older copy arriving late changes nothing.
    expect(updateMessages(reacted, [message(1, { content: "after the edit", changeSeq: 5 })])).toBe(reacted);
  });

  it("catches up changes from the oldest page's change number", () => {
    expect(changeWatermark(data({ messages: [], lastChangeSeq: 9 }, { messages: [], lastChangeSeq: 4 }))).toBe(4);
    expect(changeWatermark(undefined)).toBe(0);
  });
});
