import { describe, expect, it } from "vitest";
import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import { MAX_GROUP_SIZE } from "./group-messages";
import { dayLabel, timelineItems } from "./timeline";

const at = (iso: string, seq: number, authorId = "u2"): MessageDto => ({
  id: `m${seq}`,
  conversationId: "c",
  seq,
  clientId: null,
  role: "user",
  content: `m${seq}`,
  metadata: { isHandoffSummary: false, isToolResult: false, timestamp: iso },
  author: { kind: "user", id: authorId, name: authorId, color: null, avatarUrl: null },
  createdAt: new Date(iso).toISOString(),
  ...unchangedMessage,
});

describe("timelineItems", () => {
  const now = new Date(2026, 10, 23, 10, 0);

  it("puts a day divider between messages either side of midnight, and splits the author's group there", () => {
    // Local times, as the reader's clock shows them.
    const items = timelineItems([at("2026-11-22T23:58:00", 1), at("2026-11-23T00:01:00", 2)], { readUpTo: 2, openedAt: 2, userId: "me", now });
    expect(items.map((item) => (item.kind === "group" ? `group:${item.group.messages.map((m) => m.seq).join(",")}` : item.kind === "day" ? item.label : item.kind))).toEqual([
      "Yesterday",
      "group:1",
      "Today",
      "group:2",
    ]);
  });

  it("places the New messages divider before the first unread message from someone else", () => {
    const messages = [at("2026-11-23T09:00:00", 1), at("2026-11-23T09:01:00", 2, "me"), at("2026-11-23T09:02:00", 3), at("2026-11-23T09:03:00", 4)];
    const kinds = timelineItems(messages, { readUpTo: 1, openedAt: 4, userId: "me", now }).map((item) => (item.kind === "group" ? item.group.messages.map((m) => m.seq).join(",") : item.kind));
    expect(kinds).toEqual(["day", "1", "2", "unread", "3,4"]);
    const partial = timelineItems(messages.slice(2), { readUpTo: 1, openedAt: 4, userId: "me", now, fromBeginning: false }).map((item) => item.kind);
    expect(partial).toEqual(["group"]);
  });

  it("starts a group where an older page begins, and after MAX_GROUP_SIZE messages, so rows already shown keep their keys", () => {
    const run = Array.from({ length: 25 }, (_, index) => at(`2026-11-23T09:${String(index).padStart(2, "0")}:00`, index + 1));
    const groups = (breakBefore?: Set<string>) => timelineItems(run, { readUpTo: 25, openedAt: 25, userId: "me", now, breakBefore }).flatMap((item) => (item.kind === "group" ? [item.group.messages.map((m) => m.seq)] : []));
    expect(groups().map((seqs) => seqs.length)).toEqual([MAX_GROUP_SIZE, 25 - MAX_GROUP_SIZE]);
    // With older messages still to load, a divider that would come first waits for what is before it.
    expect(timelineItems(run, { readUpTo: 25, openedAt: 25, userId: "me", now, fromBeginning: false })[0]!.kind).toBe("group");
    const split = groups(new Set(["m4"]));
    expect(split[0]).toEqual([1, 2, 3]);
    expect(split[1]![0]).toBe(4);
  });

  it("names older days by weekday and date, with the year only when it differs", () => {
    expect(dayLabel(new Date(2026, 10, 20), now)).toMatch(/November/);
    expect(dayLabel(new Date(2026, 10, 20), now)).not.toMatch(/2026/);
    expect(dayLabel(new Date(2025, 0, 2), now)).toMatch(/2025/);
  });
});
