import { textOf } from "@/lib/llm/types";
import { randomUUID } from "node:crypto";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { SUMMARY_INSTRUCTION } from "@/lib/llm/instructions";
import { listPanelChoices } from "@/lib/panels/list-panel-choices";
import { listSavedPanels, savedPanelSchema, saveSavedPanel } from "@/lib/panels/manage-saved-panels";
import type { PanelView } from "@/lib/panels/panel-view";
import { readPanel } from "@/lib/panels/read-panel";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI, type ChatRequest, type ScriptedReply } from "../support/fake-openai";
import { createProjectWithChannel } from "../support/fixtures";
import { emitWithAck, TestApp, type ClientSocket, type TestUser } from "../support/test-app";
import { until } from "../support/until";

/** Panels through real sockets, the real panel worker, the real openai SDK (fake server) and the offline model. */
describe("panels", () => {
  let fake: FakeOpenAI;
  let app: TestApp;
  let ann: TestUser;
  let bob: TestUser;
  let annSocket: ClientSocket;
  let bobSocket: ClientSocket;
  let projectId: string;
  const agents: Record<string, string> = {};
  const updates: PanelView[] = [];

  const agentOf = (request: ChatRequest) => /^You are (\w+)\./.exec(request.messages[0]?.content ?? "")?.[1];
  const userPrompt = (request: ChatRequest) => request.messages.at(-1)!.content;
  const answerIds = (request: ChatRequest) => [...userPrompt(request).matchAll(/<ANSWER id="([^"]+)" agent="(\w+)">/g)].map((match) => ({ id: match[1]!, agent: match[2]! }));
  const newAnswer = (content: string): ScriptedReply => ({ content: "", toolCalls: [{ name: "new_answer", arguments: JSON.stringify({ content }) }] });
  const vote = (answerId: string, reason: string): ScriptedReply => ({ content: "", toolCalls: [{ name: "vote", arguments: JSON.stringify({ answer_id: answerId, reason }) }] });

  beforeAll(async () => {
    fake = await FakeOpenAI.start();
    app = await TestApp.start({ env: { OPENAI_API_KEY: "test-key", OPENAI_BASE_URL: fake.baseURL } });
    projectId = (await createProjectWithChannel(app.prisma)).project.id;
    ann = await app.signUp("Ann");
    bob = await app.signUp("Bob");
    for (const handle of ["toby", "ada", "sage", "rex"]) {
      agents[handle] = (await app.prisma.agent.create({
        data: { projectId, handle, displayName: handle[0]!.toUpperCase() + handle.slice(1), color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" },
      })).id;
    }
    startAgents(app.runtime, { leaseMs: 5_000, pollMs: 100, offlineChunkDelayMs: 0 });
    annSocket = await app.connect(ann);
    bobSocket = await app.connect(bob);
    bobSocket.on("panel:updated", (view) => updates.push(view));
  });
  afterAll(async () => {
    await app.close();
    await fake.close();
  });
  afterEach(async () => {
    fake.reset();
    // Every test starts from the same agents, even after one failed half-way through.
    await app.prisma.agent.updateMany({ where: { id: { in: Object.values(agents) } }, data: { provider: "openai", model: "gpt-4o-mini", enabled: true, contextSettings: {} } });
  });

  const channel = async (handles = ["toby", "ada", "sage"]) => {
    const { id } = await createChannel(app.prisma, { userId: ann.id, projectId, name: `p-${randomUUID().slice(0, 8)}`, agentIds: handles.map((handle) => agents[handle]!) });
    await app.prisma.participant.upsert({ where: { conversationId_userId: { conversationId: id, userId: bob.id } }, create: { conversationId: id, userId: bob.id }, update: {} });
    for (const socket of [annSocket, bobSocket]) await emitWithAck(socket, "conversation:join", { conversationId: id });
    return id;
  };
  const post = async (conversationId: string, content: string, attachmentIds: string[] = []) => {
    await app.prisma.rateBucket.deleteMany();
    return emitWithAck<Ack<MessageDto>>(annSocket, "message:send", { conversationId, clientId: randomUUID(), content, attachmentIds });
  };
  const ask = async (conversationId: string, content: string, attachmentIds: string[] = []) => {
    const ack = await post(conversationId, content, attachmentIds);
    if ("error" in ack) throw new Error(ack.error.message);
    return ack.data;
  };
  const finalAnswer = async (question: MessageDto) => {
    await until(async () => (await app.prisma.panel.findUnique({ where: { questionMessageId: question.id } }))?.status === "finished", "the panel to finish", 20_000);
    const panel = await app.prisma.panel.findUniqueOrThrow({ where: { questionMessageId: question.id } });
    const message = await app.prisma.message.findUniqueOrThrow({ where: { id: panel.finalMessageId! } });
    return { panel, message, metadata: message.metadata as MessageMetadata };
  };
  /** What Bob's socket last heard of a panel, once it heard that it finished. */
  const lastView = async (panelId: string) => {
    await until(() => updates.some((view) => view.id === panelId && view.status === "finished"), "Bob to hear the panel finish");
    return updates.filter((view) => view.id === panelId).at(-1)!;
  };
  const snapshotsOf = async (panelId: string) => {
    const turns = await app.prisma.panelTurn.findMany({ where: { panelId }, orderBy: { startedAt: "asc" } });
    const rows = await app.prisma.contextSnapshot.findMany({ where: { turnId: { in: turns.map((turn) => turn.id) } } });
    return turns.map((turn) => ({ turn, snapshot: rows.find((row) => row.turnId === turn.id)?.snapshot as unknown as ContextSnapshot | undefined }));
  };

  it("rebuilds each agent's context every round, restarts on a new answer, and posts the most-voted answer", async () => {
    const conversationId = await channel();
    await ask(conversationId, "We launch the beta next week.");
    // Toby answers first; the others see its answer when they restart and vote for it (Ada after giving one of her own).
    fake.respondWith((request) => {
      const agent = agentOf(request)!;
      const answers = answerIds(request);
      const toby = answers.find((answer) => answer.agent === "toby");
      if (agent === "toby") return toby ? vote(toby.id, "Mine still holds.") : { ...newAnswer("Freeze features on Monday."), delayMs: 0 };
      if (!toby) return { content: "", delayMs: 400, toolCalls: [{ name: "new_answer", arguments: JSON.stringify({ content: `${agent} is still thinking` }) }] };
      if (agent === "ada" && !answers.some((answer) => answer.agent === "ada")) return newAnswer("Freeze on Tuesday instead.");
      return vote(toby.id, `${agent} agrees with Toby.`);
    });
    const question = await ask(conversationId, "@panel @toby @ada @sage when do we freeze features?");
    expect(question.metadata.panelId).toEqual(expect.any(String));
    const { panel, message, metadata } = await finalAnswer(question);

    expect(message).toMatchObject({ authorAgentId: agents.toby, role: "assistant", content: "Freeze features on Monday.", conversationId });
    expect(metadata.replyToMessageId).toBe(question.id);
    expect(metadata.panel).toMatchObject({ panelId: panel.id, endedReason: "all_voted" });
    const winner = metadata.panel!.answers.find((answer) => answer.id === metadata.panel!.winnerAnswerId)!;
    expect(winner).toMatchObject({ agentId: agents.toby, votes: 3 });
    expect(metadata.panel!.votes.every((entry) => entry.valid)).toBe(true);
    // No ordinary turn was dispatched to the panel's agents.
    expect(await app.prisma.dispatch.count({ where: { messageId: question.id } })).toBe(0);

    const turns = await snapshotsOf(panel.id);
    // Ada and Sage were restarted by Toby's answer, then by Ada's.
    expect(turns.filter(({ turn }) => turn.status === "restarted").length).toBeGreaterThan(0);
    for (const { turn, snapshot } of turns.filter(({ snapshot }) => snapshot)) {
      expect(snapshot!.mode).toBe("panel");
      expect(snapshot!.messages).toHaveLength(2);
      const prompt = textOf(snapshot!.messages[1]!.content);
      for (const tag of ["<CONVERSATION_HISTORY>", "<CURRENT_MESSAGE>", "<CURRENT_ANSWERS>", "<VOTING_STATE>"]) expect(prompt).toContain(tag);
      expect(prompt).toContain("We launch the beta next week.");
      expect(prompt).toContain(`Round ${turn.round} of 3.`);
      expect(snapshot!.panel).toMatchObject({ panelId: panel.id, round: turn.round });
    }
    const firstRound = turns.find(({ turn }) => turn.round === 1)!.snapshot!.messages[1]!.content;
    expect(firstRound).toContain("(no answers yet)");
    const later = turns.findLast(({ snapshot }) => snapshot?.panel?.answers === 2)!.snapshot!.messages[1]!.content;
    expect(later).toContain("Freeze features on Monday.");
    expect(later).toContain("Freeze on Tuesday instead.");

    // Bob watched it live: agents working, answering and voting, then the end.
    const mine = updates.filter((view) => view.id === panel.id);
    expect(mine.some((view) => view.agents.some((agent) => agent.state === "working"))).toBe(true);
    expect(mine.some((view) => view.agents.some((agent) => agent.state === "restarting"))).toBe(true);
    expect(await lastView(panel.id)).toMatchObject({ status: "finished", endedReason: "all_voted", finalMessageId: message.id });
  });

  it("every round reads the question's files: a text file framed and escaped once, an image shown to a model that accepts images and named to one that does not", async () => {
    await app.prisma.agent.update({ where: { id: agents.toby! }, data: { contextSettings: { acceptsImages: true } } });
    const conversationId = await channel(["toby", "ada"]);
    const upload = (name: string, bytes: Uint8Array) => app.attach(ann, conversationId, name, bytes);
    const plan = await upload("plan.md", Buffer.from("# Plan\nShip on Friday & celebrate."));
    const chart = await upload("chart.png", await sharp({ create: { width: 64, height: 64, channels: 3, background: "#22aa55" } }).png().toBuffer());
    fake.respondWith((request) => {
      const answers = answerIds(request);
      return answers.some((answer) => answer.agent === agentOf(request)) ? vote(answers[0]!.id, "fine") : newAnswer(`${agentOf(request)} likes the plan`);
    });
    const { panel } = await finalAnswer(await ask(conversationId, "@panel @toby @ada is the plan sound?", [plan.id, chart.id]));

    const framed = `<attachment name="plan.md" type="text/markdown">\n# Plan\nShip on Friday &amp; celebrate.\n</attachment>`;
    // This panel's calls (another test's panel may still be finishing).
    const requestsOf = (handle: string) => fake.requests.filter((request) => agentOf(request) === handle && userPrompt(request).includes("is the plan sound?"));
    expect(requestsOf("toby").length).toBeGreaterThan(0);
    expect(requestsOf("ada").length).toBeGreaterThan(0);
    for (const request of [...requestsOf("toby"), ...requestsOf("ada")]) expect(request.messages.at(-1)!.content).toContain(framed);
    expect(requestsOf("toby").every((request) => request.messages.at(-1)!.images?.length === 1)).toBe(true);
    expect(requestsOf("ada").every((request) => request.messages.at(-1)!.images === undefined)).toBe(true);
    expect(requestsOf("ada")[0]!.messages.at(-1)!.content).toContain(`[attachment: chart.png (image/png, ${chart.bytes} bytes) — not read: not_an_image_model]`);
    const tobyTurn = (await snapshotsOf(panel.id)).find(({ turn }) => turn.agentId === agents.toby)!.snapshot!;
    expect(tobyTurn.sections.find((section) => section.kind === "current")!.items[0]!.attachments!.map(({ as, included }) => ({ as, included }))).toEqual([
      { as: "text", included: true },
      { as: "image", included: true },
    ]);
    expect(tobyTurn.messages.at(-1)!.content).toEqual([expect.objectContaining({ type: "text" }), { type: "image_url", image_url: { url: `attachment:${chart.id}`, detail: "low" } }]);
  });

  it("a follow-up panel sees what the panel concluded before, and marker text is escaped", async () => {
    const conversationId = await channel(["toby", "ada"]);
    const answerThenVote = (request: ChatRequest) => {
      const answers = answerIds(request);
      const mine = answers.find((answer) => answer.agent === agentOf(request));
      if (mine) return vote(answers[0]!.id, "first is fine");
      return newAnswer(`${agentOf(request)} says: ship </CURRENT_ANSWERS> it`);
    };
    fake.respondWith(answerThenVote);
    const first = await finalAnswer(await ask(conversationId, "@panel @toby @ada should we ship?"));
    // An ordinary turn afterwards has the panel's conclusion in its history, as Toby's own reply or Ada's message.
    fake.respondWith(() => ({ content: "As the panel said." }));
    const plain = await ask(conversationId, "@toby remind me what the panel said");
    await until(async () => (await app.prisma.dispatch.findFirst({ where: { messageId: plain.id } }))?.status === "done", "Toby's ordinary reply");
    const dispatch = await app.prisma.dispatch.findFirstOrThrow({ where: { messageId: plain.id } });
    const ordinary = (await app.prisma.contextSnapshot.findFirstOrThrow({ where: { turnId: dispatch.id } })).snapshot as unknown as ContextSnapshot;
    expect(ordinary.messages.some((message) => message.content === first.message.content && message.role === (first.message.authorAgentId === agents.toby ? "assistant" : "user"))).toBe(true);
    fake.respondWith(answerThenVote);
    const followUp = await ask(conversationId, "@panel @toby @ada and what did you decide last time?");
    const { panel } = await finalAnswer(followUp);
    const snapshot = (await snapshotsOf(panel.id))[0]!.snapshot;
    const prompt = textOf(snapshot!.messages[1]!.content);
    const history = prompt.slice(prompt.indexOf("<CONVERSATION_HISTORY>"), prompt.indexOf("</CONVERSATION_HISTORY>"));
    expect(history).toContain(first.message.content.replace("</CURRENT_ANSWERS>", "&lt;/CURRENT_ANSWERS&gt;"));
    expect(prompt.match(/<\/CURRENT_ANSWERS>/g)).toHaveLength(1);
  });

  it("a saved panel's token cap is a cap: no call starts that could overrun it, replies are bounded by what is left, and it ends with the best answer so far", async () => {
    const conversationId = await channel(["toby", "ada", "sage"]);
    await app.prisma.savedPanel.create({ data: { id: randomUUID(), projectId, handle: "tight", name: "Tight budget", agentIds: [agents.toby!, agents.ada!, agents.sage!], tokenCap: 500 } });
    // Every agent answers at length every time (as text: a long reply), so only the cap can end it.
    fake.respondWith((request) => ({ content: `${agentOf(request)} answers ${"at length ".repeat(400)}`, delayMs: 5 }));
    const before = fake.requests.length;
    const question = await ask(conversationId, "@tight cap me");
    const { panel, message, metadata } = await finalAnswer(question);
    expect(panel.savedPanelId).not.toBeNull();
    expect(panel.endedReason).toBe("tokens");
    expect(panel.tokensUsed).toBeLessThanOrEqual(500);
    expect(panel.tokensUsed).toBeGreaterThan(0);
    const calls = fake.requests.slice(before);
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect(call.max_tokens).toBeLessThan(500);
    expect(message.content).toMatch(/\*The panel reached its token cap \(500 tokens\): this is the best answer so far\.\*$/);
    expect(metadata.panel?.endedReason).toBe("tokens");
  });

  it("refuses an ad-hoc panel of more than 8 agents before anything is written or spent", async () => {
    const handles = ["toby", "ada", "sage", "rex"];
    for (let i = 0; handles.length < 9; i++) {
      const handle = `crowd${i}${Date.now() % 10_000}`;
      agents[handle] = (await app.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } })).id;
      handles.push(handle);
    }
    const conversationId = await channel(handles);
    const requests = fake.requests.length;
    const ack = await post(conversationId, `@panel ${handles.map((handle) => `@${handle}`).join(" ")} what now?`);
    expect(ack).toMatchObject({ error: { code: "bad_request", message: "A panel seats at most 8 agents; this one names 9. Ask fewer agents." } });
    expect(await app.prisma.panel.count({ where: { conversationId } })).toBe(0);
    expect(fake.requests.length).toBe(requests);
  });

  it("ends at its time limit with the best answer so far, saying so", async () => {
    const conversationId = await channel(["toby", "ada"]);
    await app.prisma.savedPanel.create({ data: { id: randomUUID(), projectId, handle: "hasty", name: "Hasty", agentIds: [agents.toby!, agents.ada!], timeLimitSeconds: 1 } });
    // Toby answers at once, then (like Ada all along) takes longer than the panel has.
    fake.respondWith((request) => (agentOf(request) === "toby" && answerIds(request).length === 0 ? newAnswer("Quick answer.") : { ...newAnswer("Slow answer."), delayMs: 5_000 }));
    const started = Date.now();
    const { panel, message } = await finalAnswer(await ask(conversationId, "@hasty quick, what now?"));
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(panel.endedReason).toBe("time");
    expect(message.content).toBe("Quick answer.\n\n*The panel ran out of time: this is the best answer so far.*");
  });

  it("an agent cut off while its summary is being written is recorded restarted: the card read back matches the live one", async () => {
    const summy = await app.prisma.agent.create({
      data: { projectId, handle: "summy", displayName: "Summy", color: "#0ea5e9", systemPrompt: "You are summy.", provider: "openai", model: "gpt-4o-mini", contextSettings: { pruningStrategy: "summarize", maxWorkingMemoryTokens: 600 } },
    });
    agents.summy = summy.id;
    const conversationId = await channel(["toby", "summy"]);
    for (let index = 0; index < 8; index += 1) await ask(conversationId, `Background ${index}: ${"the release needs careful planning ".repeat(15)}`);
    await app.prisma.savedPanel.create({ data: { id: randomUUID(), projectId, handle: "briefly", name: "Briefly", agentIds: [agents.toby!, summy.id], timeLimitSeconds: 1 } });
    const summaries: number[] = [];
    fake.respondWith((request) => {
      if (request.messages[0]!.content.startsWith(SUMMARY_INSTRUCTION)) return summaries.push(1), { content: "They planned.", delayMs: 5_000 };
      return agentOf(request) === "toby" ? newAnswer("Plan it.") : { ...newAnswer("Slow."), delayMs: 5_000 };
    });
    const { panel } = await finalAnswer(await ask(conversationId, "@briefly what now?"));
    expect(panel.endedReason).toBe("time");
    expect(summaries.length).toBeGreaterThan(0);
    const turns = await app.prisma.panelTurn.findMany({ where: { panelId: panel.id, agentId: summy.id } });
    expect(turns.map((turn) => turn.status)).not.toContain("working");
    expect(turns.at(-1)).toMatchObject({ status: "restarted", error: null });
    const readBack = await readPanel(app.prisma, { userId: ann.id, panelId: panel.id });
    const live = await lastView(panel.id);
    expect(readBack.agents.find((agent) => agent.id === summy.id)!.state).toBe("waiting");
    expect(live.agents.find((agent) => agent.id === summy.id)!.state).toBe("waiting");
  });

  it("stops after maxRounds, and a failing agent is marked failed while the rest complete", async () => {
    const conversationId = await channel();
    // Everyone keeps answering (never votes); Sage's endpoint fails.
    fake.respondWith((request) => (agentOf(request) === "sage" ? { error: 500 } : newAnswer(`${agentOf(request)} ${randomUUID()}`)));
    const question = await ask(conversationId, "@panel @toby @ada @sage keep going");
    const { panel, message } = await finalAnswer(question);
    expect(panel.endedReason).toBe("max_rounds");
    const turns = await app.prisma.panelTurn.findMany({ where: { panelId: panel.id } });
    for (const handle of ["toby", "ada"]) expect(Math.max(...turns.filter((turn) => turn.agentId === agents[handle]).map((turn) => turn.round))).toBeLessThanOrEqual(3);
    // Sage's calls fail (after the SDK's retries, during which others' answers may restart it): it ends failed, having answered nothing.
    const sage = turns.filter((turn) => turn.agentId === agents.sage).sort((a, b) => a.round - b.round);
    expect(sage.at(-1)).toMatchObject({ status: "failed", error: expect.stringMatching(/internal error/) });
    expect(sage.every((turn) => turn.status === "failed" || turn.status === "restarted")).toBe(true);
    expect([agents.toby, agents.ada]).toContain(message.authorAgentId);
    const view = await lastView(panel.id);
    expect(view.agents.find((agent) => agent.handle === "sage")).toMatchObject({ state: "failed" });
    // Every answer stays visible: the replaced ones as earlier answers, the last as the current one.
    const toby = view.agents.find((agent) => agent.handle === "toby")!;
    const given = await app.prisma.panelAnswer.findMany({ where: { panelId: panel.id, agentId: agents.toby! }, orderBy: { createdAt: "asc" } });
    expect(given.length).toBeGreaterThan(1);
    expect(toby.earlier.map((answer) => answer.content)).toEqual(given.slice(0, -1).map((answer) => answer.content));
    expect(toby.answer?.content).toBe(given.at(-1)!.content);
  });

  it("an agent whose budget cannot hold the answers is not called: its turn fails on the budget and the panel completes", async () => {
    const tiny = await app.prisma.agent.create({
      data: { projectId, handle: "tiny", displayName: "Tiny", color: "#0ea5e9", systemPrompt: "You are tiny.", provider: "openai", model: "gpt-4o-mini", contextSettings: { maxWorkingMemoryTokens: 256 } },
    });
    agents.tiny = tiny.id;
    const conversationId = await channel(["toby", "ada", "tiny"]);
    const calls: string[] = [];
    fake.respondWith((request) => {
      calls.push(agentOf(request)!);
      const answers = answerIds(request);
      if (agentOf(request) === "tiny") return { ...newAnswer("Tiny's short answer."), delayMs: 300 };
      // A moment before the long answers land, so Tiny's first start (no answers yet) reaches the model.
      return answers.length > 0 ? vote(answers[0]!.id, "fine") : { ...newAnswer(`${agentOf(request)}: ${"a long and careful answer ".repeat(60)}`), delayMs: 150 };
    });
    const question = await ask(conversationId, "@panel @toby @ada @tiny explain it at length");
    const { panel } = await finalAnswer(question);
    const turns = (await snapshotsOf(panel.id)).filter(({ turn }) => turn.agentId === tiny.id);
    const overflowing = turns.find(({ snapshot }) => snapshot?.error === "budget")!;
    expect(overflowing.snapshot).toMatchObject({ error: "budget", messages: [], budget: { maxTokens: 256, usedTokens: 0 } });
    expect(overflowing.turn).toMatchObject({ status: "failed", error: "The panel's context does not fit this agent's budget." });
    expect(calls).toContain("tiny");
    // Its restarts with the long answers never reached the model; every snapshot it was called with fits.
    expect(calls.filter((agent) => agent === "tiny")).toHaveLength(turns.filter(({ snapshot }) => snapshot && !snapshot.error).length);
    for (const { snapshot } of turns.filter(({ snapshot }) => snapshot && !snapshot.error)) expect(snapshot!.budget.usedTokens).toBeLessThanOrEqual(256);
    expect(["all_voted", "max_rounds"]).toContain(panel.endedReason);
  });

  it("runs on the offline model: everyone answers, then votes for the answer closest to its own", async () => {
    await app.prisma.agent.updateMany({ where: { id: { in: [agents.toby!, agents.ada!, agents.sage!] } }, data: { provider: "offline", model: "offline" } });
    const conversationId = await channel();
    const question = await ask(conversationId, "@panel @toby @ada @sage what is our release day?");
    const { panel, message, metadata } = await finalAnswer(question);
    expect(["all_voted", "max_rounds"]).toContain(panel.endedReason);
    expect(message.content).toContain("(offline model)");
    expect(metadata.panel!.votes.length).toBeGreaterThan(0);
    expect(metadata.panel!.votes.every((entry) => /^Closest to my own answer/.test(entry.reason))).toBe(true);
  });

  it("refuses a panel of fewer than two agents, of agents not here or disabled, with the reason, and keeps nothing", async () => {
    const conversationId = await channel(["toby", "ada"]);
    const before = await app.prisma.message.count({ where: { conversationId } });
    const refusal = async (content: string) => {
      const ack = await post(conversationId, content);
      return "error" in ack ? ack.error.message : null;
    };
    expect(await refusal("@panel @toby alone?")).toMatch(/^A panel needs at least two agents of this conversation/);
    expect(await refusal("@panel @toby @rex together?")).toBe("@rex is not in this conversation: add it (Add agent) before asking it on a panel.");
    await app.prisma.agent.update({ where: { id: agents.ada! }, data: { enabled: false } });
    expect(await refusal("@panel @toby @ada together?")).toBe("@ada is disabled and cannot sit on a panel.");
    await app.prisma.agent.update({ where: { id: agents.ada! }, data: { enabled: true } });
    expect(await app.prisma.message.count({ where: { conversationId } })).toBe(before);

    // A saved panel naming an agent that was deleted is refused when used.
    const ghost = await app.prisma.agent.create({ data: { projectId, handle: `ghost${Date.now() % 10_000}`, displayName: "Ghost", color: "#000000", systemPrompt: "x", model: "offline" } });
    await app.prisma.savedPanel.create({ data: { id: randomUUID(), projectId, handle: "review-board", name: "Review board", agentIds: [agents.toby!, ghost.id] } });
    await app.prisma.agent.delete({ where: { id: ghost.id } });
    expect(await refusal("@review-board is this ready?")).toBe("The panel @review-board names an agent that no longer exists: ask an admin to update it.");
    // The composer is told too, before anyone asks it.
    expect((await listPanelChoices(app.prisma, { projectId })).find((choice) => choice.handle === "review-board")).toMatchObject({ agents: ["Toby"], refusal: "The panel @review-board names an agent that no longer exists: ask an admin to update it." });
    expect(await app.prisma.panel.count({ where: { conversationId } })).toBe(0);
  });

  it("admins save panels under handles no person or agent has; a saved panel answers by its handle", async () => {
    const admin = { id: ann.id, name: ann.name, email: ann.email, role: "admin" as const };
    await app.prisma.user.update({ where: { id: ann.id }, data: { role: "admin" } });
    const fields = (input: unknown) => {
      const parsed = savedPanelSchema.safeParse(input);
      return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((issue) => [issue.path.join("."), issue.message]));
    };
    expect(fields({ handle: "duo", name: "Duo", agentIds: [agents.toby] }).agentIds).toBe("A panel needs at least two agents.");
    expect(fields({ handle: "twice", name: "Twice", agentIds: [agents.toby, agents.ada, agents.toby] }).agentIds).toBe("An agent sits on a panel once: remove the one listed twice.");
    expect(fields({ handle: "panel", name: "P", agentIds: [agents.toby, agents.ada] }).handle).toMatch(/@panel is taken/);
    const save = (input: object) => saveSavedPanel(app.prisma, { actor: admin, input: savedPanelSchema.parse({ name: "Board", agentIds: [agents.toby, agents.ada], ...input }) });
    await expect(save({ handle: "toby" })).rejects.toMatchObject({ fields: { handle: "@toby is already an agent's handle." } });
    await save({ handle: "board" });
    await expect(save({ handle: "board" })).rejects.toMatchObject({ fields: { handle: "A panel is already called @board." } });
    expect((await listSavedPanels(app.prisma, { actor: admin })).panels.find((panel) => panel.handle === "board")).toMatchObject({ agentIds: [agents.toby, agents.ada], maxRounds: 3, missingAgents: 0 });
    expect((await listPanelChoices(app.prisma, { projectId })).find((choice) => choice.handle === "board")).toEqual({ handle: "board", name: "Board", agents: ["Toby", "Ada"], refusal: null });
    await app.prisma.user.update({ where: { id: ann.id }, data: { role: "member" } });

    const conversationId = await channel(["toby"]);
    fake.respondWith((request) => {
      const answers = answerIds(request);
      return answers.length > 0 ? vote(answers[0]!.id, "good") : newAnswer(`${agentOf(request)} answers`);
    });
    const { panel } = await finalAnswer(await ask(conversationId, "@board is this ready?"));
    expect(panel.agentIds).toEqual([agents.toby, agents.ada]);
    expect(panel.savedPanelId).not.toBeNull();
  });
});
