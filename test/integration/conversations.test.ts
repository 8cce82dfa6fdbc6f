import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChannel } from "@/lib/conversations/create-channel";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { openRoom } from "@/lib/conversations/open-room";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

describe("conversation types and keys", () => {
  let app: TestApp;
  let projectId: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let agentId: string;

  beforeAll(async () => {
    app = await TestApp.start();
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    [alice, bob, carol] = [await app.signUp("Alice"), await app.signUp("Bob"), await app.signUp("Carol")];
    agentId = (await app.prisma.agent.create({ data: { projectId, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "Help.", model: "offline" } })).id;
  });
  afterAll(() => app.close());

  it("returns the same DM thread to both people, in either direction", async () => {
    const first = await openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: bob.id });
    const again = await openDirectMessage(app.prisma, { userId: bob.id, projectId, otherUserId: alice.id });
    const other = await openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: carol.id });

    expect(first.created).toBe(true);
    expect(again).toEqual({ id: first.id, created: false });
    expect(other.id).not.toBe(first.id);
  });

  it("creates exactly one DM when two tabs race to open it", async () => {
    const dave = await app.signUp("Dave");
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        index % 2 ? openDirectMessage(app.prisma, { userId: carol.id, projectId, otherUserId: dave.id }) : openDirectMessage(app.prisma, { userId: dave.id, projectId, otherUserId: carol.id }),
      ),
    );
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    const participants = await app.prisma.participant.findMany({ where: { conversationId: results[0]!.id } });
    expect(participants.map((participant) => participant.userId).sort()).toEqual([carol.id, dave.id].sort());
  });

  it("keeps one agent chat per person and agent, also under concurrency", async () => {
    const results = await Promise.all(Array.from({ length: 5 }, () => openAgentChat(app.prisma, { userId: alice.id, projectId, agentId })));
    expect(new Set(results.map((result) => result.id)).size).toBe(1);
    const bobs = await openAgentChat(app.prisma, { userId: bob.id, projectId, agentId });
    expect(bobs.id).not.toBe(results[0]!.id);
    expect(await app.prisma.conversation.findUniqueOrThrow({ where: { id: bobs.id } })).toMatchObject({ type: "agent_dm", key: "direct_message" });
  });

  it("returns the same per-room conversation for the same room and joins whoever opens it", async () => {
    const mine = await openRoom(app.prisma, { userId: alice.id, projectId, room: "task:42" });
    const theirs = await openRoom(app.prisma, { userId: bob.id, projectId, room: "TASK:42" });
    expect(theirs.id).toBe(mine.id);
    const participants = await app.prisma.participant.findMany({ where: { conversationId: mine.id } });
    expect(participants.map((participant) => participant.userId).sort()).toEqual([alice.id, bob.id].sort());
  });

  it("makes a channel for the whole project and refuses a second one of the same name", async () => {
    const channel = await createChannel(app.prisma, { userId: alice.id, projectId, name: "release", agentIds: [agentId] });
    expect(channel.participantUserIds.sort()).toEqual((await app.prisma.membership.findMany({ where: { projectId } })).map((m) => m.userId).sort());
    await expect(createChannel(app.prisma, { userId: bob.id, projectId, name: "release" })).rejects.toMatchObject({
      code: "conflict",
      message: "A channel named #release already exists.",
    });
  });

  it.each([
    ["a DM with oneself", () => openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: alice.id }), /yourself/],
    ["a DM with someone outside the project", () => openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: "no-such-user" }), /not a member of this project/],
    ["an agent chat with an unknown agent", () => openAgentChat(app.prisma, { userId: alice.id, projectId, agentId: "nope" }), /not part of this project/],
    ["a channel with an agent from elsewhere", () => createChannel(app.prisma, { userId: alice.id, projectId, name: "x", agentIds: ["nope"] }), /not available/],
    ["opening anything in a project one is not in", () => openRoom(app.prisma, { userId: alice.id, projectId: "other", room: "r" }), /not a member of this project/],
  ])("refuses %s with a reason", async (_case, open, reason) => {
    await expect(open()).rejects.toThrow(reason);
  });

  it("refuses an agent chat with a disabled agent", async () => {
    const sleepy = await app.prisma.agent.create({ data: { projectId, handle: "sleepy", displayName: "Sleepy", color: "#888888", systemPrompt: "z", model: "offline", enabled: false } });
    await expect(openAgentChat(app.prisma, { userId: alice.id, projectId, agentId: sleepy.id })).rejects.toThrow(/Sleepy is disabled/);
  });
});
