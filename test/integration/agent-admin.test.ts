import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentConfigSchema } from "@/lib/agents/agent-settings";
import { createAgent, getAgent, listAgents, setAgentEnabled, updateAgent } from "@/lib/agents/manage-agents";
import type { SessionUser } from "@/lib/auth/session-user";
import { addAgentToConversation } from "@/lib/conversations/add-agent-to-conversation";
import { listMessages } from "@/lib/conversations/list-messages";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { postMessage } from "@/lib/conversations/post-message";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";

/** Admins configure agents; anyone in a group brings them in; members and debug users cannot configure. */
describe("agent administration", () => {
  let app: TestApp;
  let admin: SessionUser;
  let member: SessionUser;
  let debug: SessionUser;
  let alice: TestUser;
  let channelId: string;

  const config = (change: Record<string, unknown> = {}) =>
    agentConfigSchema.parse({ handle: "scout", displayName: "Scout", color: "#112233", systemPrompt: "You scout.", provider: "offline", model: "offline", temperature: 0.5, maxOutputTokens: 256, historyWindow: 20, ...change });
  const asUser = async (user: TestUser, role: SessionUser["role"]): Promise<SessionUser> => {
    await app.prisma.user.update({ where: { id: user.id }, data: { role } });
    return { id: user.id, name: user.name, email: user.email, role };
  };

  beforeAll(async () => {
    app = await TestApp.start();
    await createProjectWithChannel(app.prisma);
    alice = await app.signUp("Alice");
    admin = await asUser(await app.signUp("Adam"), "admin");
    member = await asUser(alice, "member");
    debug = await asUser(await app.signUp("Dee"), "debug");
    const projectId = (await app.prisma.project.findFirstOrThrow()).id;
    channelId = (await createChannel(app.prisma, { projectId, name: "team", userIds: [alice.id, admin.id] })).id;
  });
  afterAll(() => app.close());

  it("lets an admin create, list, edit and disable an agent, context settings included", async () => {
    const created = await createAgent(app.prisma, { actor: admin, config: config({ pruningStrategy: "summarize", maxWorkingMemoryTokens: 4000 }) });
    expect(created).toMatchObject({ handle: "scout", enabled: true, contextSettings: { pruningStrategy: "summarize", maxWorkingMemoryTokens: 4000, summarizeFraction: 0.3 } });
    expect((await listAgents(app.prisma, { actor: admin })).map((agent) => agent.handle)).toContain("scout");

    const edited = await updateAgent(app.prisma, { actor: admin, agentId: created.id, config: config({ displayName: "Scout 2", historyWindow: 5, pruningStrategy: "summarize" }) });
    expect(edited).toMatchObject({ displayName: "Scout 2", historyWindow: 5, contextSettings: { pruningStrategy: "summarize" } });

    await setAgentEnabled(app.prisma, { actor: admin, agentId: created.id, enabled: false });
    expect(await getAgent(app.prisma, { actor: admin, agentId: created.id })).toMatchObject({ enabled: false });
    await expect(openAgentChat(app.prisma, { userId: alice.id, projectId: (await app.prisma.project.findFirstOrThrow()).id, agentId: created.id })).rejects.toMatchObject({
      code: "bad_request",
      message: "Scout 2 is disabled by an admin.",
    });
  });

  it("refuses a handle already used by another agent or by a member, on the handle field", async () => {
    await createAgent(app.prisma, { actor: admin, config: config({ handle: "taken" }) });
    await expect(createAgent(app.prisma, { actor: admin, config: config({ handle: "TAKEN" }) })).rejects.toMatchObject({ code: "conflict", fields: { handle: "@taken is already used by another agent." } });
    const aliceHandle = (await app.prisma.user.findUniqueOrThrow({ where: { id: alice.id } })).handle;
    await expect(createAgent(app.prisma, { actor: admin, config: config({ handle: aliceHandle }) })).rejects.toMatchObject({ fields: { handle: `@${aliceHandle} is already used by a member of this project.` } });
  });

  it.each([
    ["member", () => member],
    ["debug", () => debug],
  ])("forbids every admin operation to a %s user", async (_role, actor) => {
    const [some] = await listAgents(app.prisma, { actor: admin });
    const attempts = [
      listAgents(app.prisma, { actor: actor() }),
      getAgent(app.prisma, { actor: actor(), agentId: some!.id }),
      createAgent(app.prisma, { actor: actor(), config: config({ handle: `x${randomUUID().slice(0, 6)}` }) }),
      updateAgent(app.prisma, { actor: actor(), agentId: some!.id, config: config({ handle: some!.handle, displayName: "hijacked" }) }),
      setAgentEnabled(app.prisma, { actor: actor(), agentId: some!.id, enabled: false }),
    ];
    for (const attempt of attempts) await expect(attempt).rejects.toMatchObject({ code: "forbidden" });
    expect(await getAgent(app.prisma, { actor: admin, agentId: some!.id })).toMatchObject({ displayName: some!.displayName, enabled: some!.enabled });
  });

  it("adds an agent to a group once, with a notice everyone sees, after which mentions of it dispatch", async () => {
    const helper = await createAgent(app.prisma, { actor: admin, config: config({ handle: "helper", displayName: "Helper" }) });
    const before = await postMessage(app.prisma, { userId: alice.id, input: { conversationId: channelId, clientId: randomUUID(), content: "@helper hi?" } });
    expect(before.dispatchedAgentIds).toEqual([]);
    expect(before.unknownMentions).toEqual(["helper"]);

    const { message, participantUserIds } = await addAgentToConversation(app.prisma, { userId: alice.id, conversationId: channelId, agentId: helper.id });
    expect(message).toMatchObject({ role: "system", author: { kind: "system" }, content: "Alice added Helper (@helper) to the conversation." });
    expect(participantUserIds.sort()).toEqual([alice.id, admin.id].sort());
    await expect(addAgentToConversation(app.prisma, { userId: admin.id, conversationId: channelId, agentId: helper.id })).rejects.toMatchObject({ code: "conflict" });

    const after = await postMessage(app.prisma, { userId: alice.id, input: { conversationId: channelId, clientId: randomUUID(), content: "@helper hi again?" } });
    expect(after.dispatchedAgentIds).toEqual([helper.id]);
    const notices = (await listMessages(app.prisma, { userId: alice.id, conversationId: channelId })).messages.filter((m) => m.role === "system");
    expect(notices).toHaveLength(1);
  });

  it("refuses to add agents to a DM, to someone outside the conversation, or a disabled agent", async () => {
    const projectId = (await app.prisma.project.findFirstOrThrow()).id;
    const agent = await createAgent(app.prisma, { actor: admin, config: config({ handle: "extra" }) });
    const dm = await openDirectMessage(app.prisma, { userId: alice.id, projectId, otherUserId: admin.id });
    await expect(addAgentToConversation(app.prisma, { userId: alice.id, conversationId: dm.id, agentId: agent.id })).rejects.toMatchObject({ code: "bad_request" });
    await expect(addAgentToConversation(app.prisma, { userId: debug.id, conversationId: channelId, agentId: agent.id })).rejects.toMatchObject({ code: "forbidden" });
    await setAgentEnabled(app.prisma, { actor: admin, agentId: agent.id, enabled: false });
    await expect(addAgentToConversation(app.prisma, { userId: alice.id, conversationId: channelId, agentId: agent.id })).rejects.toMatchObject({ code: "bad_request", message: "Scout is disabled by an admin." });
  });
});
