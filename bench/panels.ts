import { randomUUID } from "node:crypto";
import type { ContextSnapshot } from "@/lib/context/types";
import { createChannel } from "@/lib/conversations/create-channel";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack } from "@/lib/realtime/events";
import { startAgents } from "@/lib/runtime/runtime";
import { FakeOpenAI } from "@/test/support/fake-openai";
import { createProjectWithChannel } from "@/test/support/fixtures";
import { emitWithAck } from "@/test/support/test-app";
import { measureDirectFirstToken } from "./agents";
import { percentile, result, type BenchResult } from "./measure";
import { startBenchServer } from "./bench-server";

const PANELS = 7;
const ROUNDS = 3;

/**
 * A 3-agent, 3-round panel against the fake server answering at once (every agent answers anew
 * each round, so each runs its three rounds): the time per round beyond a model call, and the
 * prompt tokens each round sends (all three agents).
 */
export async function measurePanels(): Promise<BenchResult[]> {
  const fake = await FakeOpenAI.start();
  const app = await startBenchServer(fake.baseURL);
  try {
    const { project } = await createProjectWithChannel(app.prisma);
    const user = await app.signUp("panelbench");
    const agents = [];
    for (const handle of ["ann", "bea", "cy"]) {
      agents.push(await app.prisma.agent.create({ data: { projectId: project.id, handle, displayName: handle, color: "#123456", systemPrompt: `You are ${handle}.`, provider: "openai", model: "gpt-4o-mini" } }));
    }
    const channel = await createChannel(app.prisma, { userId: user.id, projectId: project.id, name: "panels", agentIds: agents.map((agent) => agent.id) });
    fake.respondWith(() => ({ content: "", toolCalls: [{ name: "new_answer", arguments: JSON.stringify({ content: `A fresh answer ${randomUUID()}.` }) }] }));
    startAgents(app.runtime, { pollMs: 1_000 });
    const socket = await app.connect(user);
    await emitWithAck(socket, "conversation:join", { conversationId: channel.id });

    const perRound: number[] = [];
    const tokensPerRound: number[] = [];
    for (let run = 0; run < PANELS; run += 1) {
      await app.prisma.rateBucket.deleteMany();
      const started = performance.now();
      const finished = new Promise<void>((resolve) => {
        const onMessage = (message: MessageDto) => {
          if (!message.metadata.panel) return;
          socket.off("message:created", onMessage);
          resolve();
        };
        socket.on("message:created", onMessage);
      });
      const ack = await emitWithAck<Ack<MessageDto>>(socket, "message:send", { conversationId: channel.id, clientId: randomUUID(), content: `@panel @ann @bea @cy question ${run}` });
      if (!("data" in ack)) throw new Error(ack.error.message);
      await finished;
      const elapsed = performance.now() - started;
      const panel = await app.prisma.panel.findUniqueOrThrow({ where: { questionMessageId: ack.data.id }, include: { turns: true } });
      const rounds = Math.max(...panel.turns.map((turn) => turn.round));
      if (rounds !== ROUNDS) throw new Error(`the panel ran ${rounds} rounds, not ${ROUNDS}`);
      const snapshots = await app.prisma.contextSnapshot.findMany({ where: { turnId: { in: panel.turns.map((turn) => turn.id) } }, select: { snapshot: true } });
      const tokens = snapshots.reduce((sum, row) => sum + (row.snapshot as unknown as ContextSnapshot).budget.usedTokens, 0);
      // The first runs warm the server's code and the database's plans.
      if (run >= 2) {
        perRound.push(elapsed / rounds);
        tokensPerRound.push(tokens / rounds);
      }
    }
    fake.reset();
    const direct = await measureDirectFirstToken(fake.baseURL);
    return [
      result("panels.round_ms", "ms", percentile(perRound, 50), percentile(direct, 50), { addedAtMost: 15 }),
      result("panels.prompt_tokens_per_round", "tokens", percentile(tokensPerRound, 50), null),
    ];
  } finally {
    await app.close();
    await fake.close();
  }
}
