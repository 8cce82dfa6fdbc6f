import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { GET as turnContextRoute } from "@/app/api/turns/[turnId]/context/route";
import { countPrompt } from "@/lib/context/message-costs";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { counterFor } from "@/lib/llm/token-counter";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import type { Prisma } from "@/lib/generated/prisma/client";
import { FakeOpenAI } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { makePdfPages, textOperators } from "../support/make-pdf";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** People attach files; agents read them as context.md says, and the inspector shows how. */
describe("agents read attachments", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let ann: TestUser;
  let projectId: string;
  let socket: ClientSocket;
  const received: MessageDto[] = [];

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL } });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    ann = await app.signUp("Ann");
    await app.prisma.user.update({ where: { id: ann.id }, data: { role: "debug" } });
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 100, offlineChunkDelayMs: 0 });
    socket = await app.connect(ann);
    socket.on("message:created", (message) => received.push(message));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  afterEach(() => fake.reset());

  let rooms = 0;
  const room = async (agent: { provider?: "openai" | "offline"; contextSettings?: Prisma.InputJsonObject }) => {
    const handle = `reader${++rooms}`;
    const created = await app.prisma.agent.create({
      data: { projectId, handle, displayName: `Reader ${rooms}`, color: "#0ea5e9", systemPrompt: "You read files.", provider: agent.provider ?? "openai", model: "gpt-4o-mini", contextSettings: agent.contextSettings ?? {} },
    });
    const channel = await createChannel(app.prisma, { userId: ann.id, projectId, name: `files-${rooms}`, agentIds: [created.id] });
    await emitWithAck(socket, "conversation:join", { conversationId: channel.id });
    return { handle, conversationId: channel.id };
  };
  const upload = (conversationId: string, name: string, bytes: Uint8Array) => app.attach(ann, conversationId, name, bytes);
  const ask = async (conversationId: string, content: string, attachmentIds: string[]) => {
    await app.prisma.rateBucket.deleteMany();
    const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId, clientId: randomUUID(), content, attachmentIds });
    if ("error" in ack) throw new Error(ack.error.message);
    const question = ack.data;
    await until(() => received.some((message) => message.metadata.replyToMessageId === question.id), "the agent's reply");
    const reply = received.find((message) => message.metadata.replyToMessageId === question.id)!;
    const response = await turnContextRoute(new Request(`${app.url}/api/turns/${reply.metadata.dispatchId}/context`, { headers: { cookie: ann.cookie } }), { params: Promise.resolve({ turnId: reply.metadata.dispatchId! }) });
    return { reply, snapshot: ((await response.json()) as { data: ContextSnapshot }).data };
  };
  const currentFiles = (snapshot: ContextSnapshot) => snapshot.sections.find((section) => section.kind === "current")!.items[0]!.attachments;
  const photo = () => sharp({ create: { width: 1200, height: 800, channels: 3, background: "#3366cc" } }).png().toBuffer();

  it("a model that accepts images is sent the photo as a low-detail image part and the PDF's text in a frame; the snapshot keeps attachment:ID", async () => {
    const { handle, conversationId } = await room({ contextSettings: { acceptsImages: true } });
    const image = await upload(conversationId, "screen.png", await photo());
    const pdf = await upload(conversationId, "report.pdf", makePdfPages([{ operators: textOperators(["Quarterly revenue grew nine percent"]) }]));

    const { reply, snapshot } = await ask(conversationId, `@${handle} what do these show?`, [image.id, pdf.id]);
    expect(reply.metadata.error).toBeUndefined();
    const sent = fake.requests.at(-1)!.messages.at(-1)!;
    // The fake server refuses anything but a base64 data URL of a real image: the bytes went out, as WebP thumbnail of the large photo.
    expect(sent.images).toEqual([{ mediaType: "image/webp", bytes: expect.any(Number), detail: "low" }]);
    expect(sent.content).toContain(`<attachment name="report.pdf" type="application/pdf">\nQuarterly revenue grew nine percent`);
    expect(snapshot.messages.at(-1)!.content).toEqual([
      { type: "text", text: sent.content },
      { type: "image_url", image_url: { url: `attachment:${image.id}`, detail: "low" } },
    ]);
    expect(currentFiles(snapshot)).toEqual([
      { id: image.id, name: "screen.png", mediaType: "image/png", bytes: image.bytes, as: "image", tokens: 85, included: true },
      { id: pdf.id, name: "report.pdf", mediaType: "application/pdf", bytes: pdf.bytes, as: "text", tokens: expect.any(Number), included: true },
    ]);
    expect(snapshot.budget.usedTokens).toBe(countPrompt(snapshot.messages, counterFor("gpt-4o-mini")));
  });

  it("a model that does not accept images is told the image's name, type and size, and why it was not read; later turns see the files in the history", async () => {
    const { handle, conversationId } = await room({});
    const image = await upload(conversationId, "diagram.png", await photo());
    await ask(conversationId, `@${handle} see this`, [image.id]);
    const note = `\n\n[attachment: diagram.png (image/png, ${image.bytes} bytes) — not read: not_an_image_model]`;
    expect(fake.requests.at(-1)!.messages.at(-1)).toMatchObject({ content: `@${handle} see this${note}` });
    expect(fake.requests.at(-1)!.messages.at(-1)!.images).toBeUndefined();

    const { snapshot } = await ask(conversationId, `@${handle} and now?`, []);
    const history = snapshot.sections.find((section) => section.kind === "history")!.items;
    expect(history[0]!.attachments).toEqual([expect.objectContaining({ id: image.id, as: "note", included: false, reason: "not_an_image_model" })]);
    expect(fake.requests.at(-1)!.messages.some((message) => message.content === `@${handle} see this${note}`)).toBe(true);
  });

  it("the offline model says which attachments it received", async () => {
    const { handle, conversationId } = await room({ provider: "offline" });
    const notes = await upload(conversationId, "notes.md", Buffer.from("# Launch\nShip on Friday."));
    const image = await upload(conversationId, "team.png", await photo());
    const { reply } = await ask(conversationId, `@${handle} summarise`, [notes.id, image.id]);
    expect(reply.content).toContain("with 2 attachments: notes.md (read as text), team.png (not read: not_an_image_model)");
  });
});
