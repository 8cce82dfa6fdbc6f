import { describe, expect, it } from "vitest";
import { allowedActions, manageRefusal, type ManagedConversation } from "./conversation-permissions";

const channel: ManagedConversation = { type: "group", key: "global", title: "ops", createdByUserId: "creator" };
const member = { userId: "member", isAdmin: false };
const admin = { userId: "admin", isAdmin: true };
const creator = { userId: "creator", isAdmin: false };

describe("who may manage a conversation", () => {
  it("lets admins and the creator manage a channel, and anyone in it leave or add people", () => {
    expect([...allowedActions(channel, admin)]).toEqual(["rename", "topic", "archive", "add_member", "remove_member", "leave"]);
    expect(allowedActions(channel, creator)).toEqual(allowedActions(channel, admin));
    expect([...allowedActions(channel, member)]).toEqual(["add_member", "leave"]);
    expect(manageRefusal(channel, member, "rename")).toEqual({ code: "forbidden", message: "Only admins and the person who created it can rename #ops." });
  });

  it("leaves a channel without a creator to admins", () => {
    const old = { ...channel, createdByUserId: null };
    expect(manageRefusal(old, { userId: "x", isAdmin: false }, "archive")).toEqual({ code: "forbidden", message: "Only admins can archive or unarchive #ops." });
    expect(manageRefusal(old, admin, "archive")).toBeNull();
  });

  it("lets an agent chat's person rename and archive it, nothing else", () => {
    const chat: ManagedConversation = { type: "agent_dm", key: "direct_message", title: "", createdByUserId: null };
    expect([...allowedActions(chat, member)]).toEqual(["rename", "archive"]);
    expect(manageRefusal(chat, member, "leave")?.message).toMatch(/archive it instead/);
  });

  it("refuses every change to a DM and a fork, whoever asks", () => {
    for (const type of ["dm", "fork"] as const) {
      const conversation: ManagedConversation = { type, key: "direct_message", title: "", createdByUserId: null };
      expect(allowedActions(conversation, admin).size).toBe(0);
      expect(manageRefusal(conversation, admin, "rename")?.code).toBe("conflict");
    }
  });

  it("keeps a room's name, which is its identity", () => {
    const room: ManagedConversation = { type: "group", key: "per_room", title: "task:42", createdByUserId: "creator" };
    expect(manageRefusal(room, admin, "rename")).toMatchObject({ code: "bad_request", message: expect.stringContaining("Set a topic instead") });
    expect(manageRefusal(room, admin, "topic")).toBeNull();
  });
});
