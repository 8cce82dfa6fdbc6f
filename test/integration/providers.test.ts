import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteAgent, duplicateAgent } from "@/lib/agents/delete-or-copy-agent";
import { agentConfigSchema } from "@/lib/agents/agent-settings";
import { createAgent, listAgents, updateAgent } from "@/lib/agents/manage-agents";
import type { SessionUser } from "@/lib/auth/session-user";
import { listMessages } from "@/lib/conversations/list-messages";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { postMessage } from "@/lib/conversations/post-message";
import type { AppError } from "@/lib/errors/app-error";
import { deleteProvider, listProviders, providerInputSchema, saveProvider, testProvider } from "@/lib/providers/manage-providers";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { TestApp, type TestUser } from "../support/test-app";
import { until } from "../support/until";

const failure = async (promise: Promise<unknown>) => (await promise.then(() => null, (error: unknown) => error)) as AppError | null;

/** Admins add OpenAI-compatible providers; agents answer through the one they pick; agents can be deleted and copied. */
describe("providers and agents' lifecycle", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let admin: SessionUser;
  let alice: TestUser;
  let projectId: string;

  const deps = () => ({ prisma: app.prisma, secrets: app.runtime.secrets });
  const save = (input: Record<string, unknown>) => saveProvider(deps(), { projectId, input: providerInputSchema.parse({ kind: "other", baseUrl: fake.baseURL, ...input }) });
  const config = (change: Record<string, unknown> = {}) =>
    agentConfigSchema.parse({ handle: "ollie", displayName: "Ollie", color: "#112233", systemPrompt: "You are Ollie.", provider: "offline", model: "offline", temperature: 0.5, maxOutputTokens: 256, historyWindow: 20, ...change });
  const ask = async (agentId: string, text: string) => {
    const chat = await openAgentChat(app.prisma, { userId: alice.id, projectId, agentId });
    const { message } = await postMessage(app.prisma, { userId: alice.id, input: { conversationId: chat.id, clientId: randomUUID(), content: text } });
    let reply: { content: string; metadata: unknown } | undefined;
    await until(async () => {
      reply = (await listMessages(app.prisma, { userId: alice.id, conversationId: chat.id })).messages.find((each) => each.seq === message.seq + 1);
      return reply !== undefined;
    }, "the agent's reply");
    return reply!;
  };

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    fake.requiredKey = "sk-right";
    app = await TestApp.start();
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    const adam = await app.signUp("Adam");
    await app.prisma.user.update({ where: { id: adam.id }, data: { role: "admin" } });
    await app.prisma.membership.createMany({ data: [{ projectId, userId: adam.id }], skipDuplicates: true });
    admin = { id: adam.id, name: adam.name, email: adam.email, role: "admin" };
    alice = await app.signUp("Alice");
    await app.prisma.membership.createMany({ data: [{ projectId, userId: alice.id }], skipDuplicates: true });
    startAgents(app.runtime, { leaseMs: 1_000, pollMs: 100 });
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });

  it("saves a provider only once it lists its models, keeping its key sealed and never showing it", async () => {
    expect(await failure(save({ name: "Local", apiKey: "sk-wrong" }))).toMatchObject({ code: "bad_request", fields: { apiKey: expect.stringMatching(/refused the key \(401\)/) } });
    expect(await failure(save({ name: "Local", baseUrl: "ftp://127.0.0.1/v1", apiKey: "sk-right" }))).toMatchObject({ fields: { baseUrl: "Only http and https addresses are allowed, not ftp." } });
    expect(await failure(save({ name: "Local", baseUrl: "http://169.254.169.254/v1", apiKey: "sk-right" }))).toMatchObject({ fields: { baseUrl: expect.stringMatching(/link-local/) } });
    expect(await failure(save({ name: "Local", baseUrl: fake.baseURL.replace("/v1", "/nothing-here"), apiKey: "sk-right" }))).toMatchObject({ fields: { baseUrl: expect.stringMatching(/404/) } });
    expect(providerInputSchema.safeParse({ name: "Az", kind: "azure", baseUrl: "https://x.openai.azure.com/openai" }).error?.issues[0]).toMatchObject({ path: ["apiVersion"] });
    expect(await app.prisma.provider.count()).toBe(0);

    const saved = await save({ name: "Local", apiKey: "sk-right" });
    expect(saved).toMatchObject({ name: "Local", hasKey: true, models: ["fake-large", "fake-small"], agents: [] });
    expect(JSON.stringify(saved)).not.toContain("sk-right");
    const row = await app.prisma.provider.findUniqueOrThrow({ where: { id: saved.id } });
    expect(row.apiKey).not.toContain("sk-right");
    expect(await failure(save({ name: "Local", apiKey: "sk-right" }))).toMatchObject({ fields: { name: "A provider named Local already exists. Choose another name." } });

    // Edited without a key: the stored one is used, and the test lists what the provider lists now.
    fake.models = ["fake-large", "fake-small", "fake-new"];
    expect(await save({ providerId: saved.id, name: "Local LLM" })).toMatchObject({ name: "Local LLM", hasKey: true, models: ["fake-large", "fake-new", "fake-small"] });
    fake.models = ["fake-large", "fake-small"];
    expect(await testProvider(deps(), { projectId, providerId: saved.id })).toMatchObject({ models: ["fake-large", "fake-small"] });
  });

  it("answers through the agent's provider with its key, and follows a new key at once", async () => {
    const [provider] = await listProviders(app.prisma, { projectId });
    expect(await failure(createAgent(app.prisma, { actor: admin, config: config({ provider: `provider:${provider!.id}`, model: "gpt-unknown" }) }))).toMatchObject({ fields: { model: expect.stringMatching(/Local LLM does not list gpt-unknown/) } });
    const ollie = await createAgent(app.prisma, { actor: admin, config: config({ provider: `provider:${provider!.id}`, model: "fake-large" }) });
    expect(ollie).toMatchObject({ provider: "custom", providerId: provider!.id });

    fake.reply({ content: "Hello through Local." });
    expect(await ask(ollie.id, "Hi Ollie")).toMatchObject({ content: "Hello through Local.", metadata: { model: "fake-large" } });
    expect(fake.requests.at(-1)?.model).toBe("fake-large");
    expect(fake.keysUsed.at(-1)).toBe("sk-right");

    fake.requiredKey = "sk-rotated";
    await save({ providerId: provider!.id, name: "Local LLM", apiKey: "sk-rotated" });
    fake.reply({ content: "Still here." });
    expect(await ask(ollie.id, "Again?")).toMatchObject({ content: "Still here." });
    expect(fake.keysUsed.at(-1)).toBe("sk-rotated");

    // A key the provider no longer takes: the agent says so, in the conversation, naming where to fix it.
    fake.requiredKey = "sk-elsewhere";
    const refused = await ask(ollie.id, "And now?");
    expect(refused.content).toMatch(/refused the API key.*the key of the provider “Local LLM”/);
    fake.requiredKey = "sk-rotated";

    expect(await failure(deleteProvider(app.prisma, { projectId, providerId: provider!.id }))).toMatchObject({ code: "conflict", message: "Ollie answers through Local LLM: choose another provider for it first." });
    await updateAgent(app.prisma, { actor: admin, agentId: ollie.id, config: config({ provider: "offline", model: "offline" }) });
    await deleteProvider(app.prisma, { projectId, providerId: provider!.id });
    expect(await listProviders(app.prisma, { projectId })).toEqual([]);
  });

  it("deletes an agent, keeping its messages' attribution and freeing its handle; copies one, disabled, with its tools", async () => {
    const sage = await createAgent(app.prisma, { actor: admin, config: config({ handle: "sage", displayName: "Sage" }) });
    const reply = await ask(sage.id, "Anything?");
    expect(reply.content).not.toBe("");

    const server = await app.prisma.mcpServer.create({ data: { projectId, name: "files", transport: "http", url: "http://127.0.0.1:9/mcp" } });
    await app.prisma.agentTool.create({ data: { agentId: sage.id, serverId: server.id, toolName: "read_file", askFirst: true } });
    const copy = await duplicateAgent(app.prisma, { actor: admin, agentId: sage.id });
    expect(copy).toMatchObject({ handle: "sage-copy", displayName: "Sage (copy)", enabled: false, systemPrompt: "You are Ollie.", model: "offline" });
    expect(await app.prisma.agentTool.findMany({ where: { agentId: copy.id }, select: { serverId: true, toolName: true, askFirst: true } })).toEqual([{ serverId: server.id, toolName: "read_file", askFirst: true }]);
    expect((await duplicateAgent(app.prisma, { actor: admin, agentId: sage.id })).handle).toBe("sage-copy2");

    await deleteAgent(app.prisma, { actor: admin, agentId: sage.id });
    expect((await listAgents(app.prisma, { actor: admin })).map((agent) => agent.handle)).not.toContain("sage");
    const chat = await openAgentChat(app.prisma, { userId: alice.id, projectId, agentId: sage.id }).catch((error: unknown) => error);
    expect(chat).toMatchObject({ code: expect.any(String) });
    const conversation = await app.prisma.message.findFirstOrThrow({ where: { authorAgentId: sage.id }, select: { conversationId: true } });
    const messages = (await listMessages(app.prisma, { userId: alice.id, conversationId: conversation.conversationId })).messages;
    expect(messages.find((each) => each.author.kind === "agent")?.author).toMatchObject({ kind: "agent", displayName: "Sage" });
    // The handle is free for a new agent.
    expect(await createAgent(app.prisma, { actor: admin, config: config({ handle: "sage", displayName: "New Sage" }) })).toMatchObject({ handle: "sage" });
    expect(await failure(deleteAgent(app.prisma, { actor: admin, agentId: sage.id }))).toMatchObject({ code: "not_found" });
  });
});
