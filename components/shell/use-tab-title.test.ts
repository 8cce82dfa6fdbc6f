import { describe, expect, it } from "vitest";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import { badgeIcon, tabTitle, unreadCount } from "./use-tab-title";

const conversation = (id: string, title: string, unread: number, type: ConversationSummary["type"] = "group") => ({ id, title, unread, type }) as ConversationSummary;

describe("tabTitle", () => {
  const list = [conversation("a", "general", 0), conversation("b", "Toby", 3, "agent_dm"), conversation("c", "random", 120)];

  it("names the open conversation and counts unread messages everywhere", () => {
    expect(tabTitle(list, "/c/a", "Chorus")).toBe("(99+) #general · Chorus");
    expect(tabTitle([list[0]!, list[1]!], "/c/b", "Chorus")).toBe("(3) Toby · Chorus");
    expect(tabTitle([list[0]!], "/c/a", "Chorus")).toBe("#general · Chorus");
  });

  it("keeps another page's own title, putting the count in front once", () => {
    expect(tabTitle([list[1]!], "/settings", "Settings · Chorus")).toBe("(3) Settings · Chorus");
    expect(tabTitle([list[1]!], "/settings", "(3) Settings · Chorus")).toBe("(3) Settings · Chorus");
  });
});

describe("badgeIcon", () => {
  it("draws the count on the tab's icon, and nothing when nothing waits", () => {
    expect(badgeIcon(unreadCount([conversation("a", "general", 0)]))).toBeNull();
    const icon = decodeURIComponent(badgeIcon(unreadCount([conversation("a", "general", 2), conversation("b", "random", 5)]))!);
    expect(icon).toMatch(/^data:image\/svg\+xml,<svg .*>7<\/text><\/svg>$/);
    expect(decodeURIComponent(badgeIcon(unreadCount([conversation("c", "random", 120)]))!)).toContain(">99+</text>");
    expect(unreadCount([conversation("a", "general", 2), { ...conversation("b", "random", 5), muted: true }])).toBe("2");
  });
});
