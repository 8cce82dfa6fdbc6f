import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConversationSync } from "@/hooks/conversation-sync";
import type { MessageDto } from "@/lib/conversations/message-dto";
import { openDatabase, type Database } from "@/lib/db/open-database";
import type { PanelDelta, PanelView } from "@/lib/panels/panel-view";
import type { Ack, ConversationActivity, MessageDelta, SessionEnded } from "@/lib/realtime/events";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { createChannel, createProjectWithChannel } from "../support/fixtures";
import { connectTo, scratchDatabase, signUpOn, startNode, startRedis, type NodeProcess } from "../support/node-process";
import { deactivatePerson } from "@/lib/people/manage-people";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { noopPublisher } from "@/lib/realtime/publisher";
import { connectRedisAdapter } from "@/lib/realtime/redis-adapter";
import { decideToolCall } from "@/lib/tool-calls/decide-tool-call";
import { startHttpMcpServer } from "../support/mcp-servers";
import { memoryStore } from "../support/message-store";
import { emitWithAck, nextEvent, type ClientSocket } from "../support/test-app";
import { until } from "../support/until";

/**
 * Two real server processes on different ports sharing one PostgreSQL and one Redis (a Redis
 * of this test's own, so it can be taken down) behave as one, and survive its faults.
 */

describe("two nodes over Redis", () => {
  const sockets: ClientSocket[] = [];
  let nodes: NodeProcess[] = [];
  let redis: Awaited<ReturnType<typeof startRedis>>;
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let db: Database;
  let projectId: string;
  let channelId: string;
  let env: Record<string, string>;

  const track = (socket: ClientSocket) => (sockets.push(socket), socket);
  const nodeA = () => nodes[0]!;
  const nodeB = () => nodes[1]!;
  const health = async (node: NodeProcess) => {
    const response = await fetch(`${node.url}/api/health`);
    return { status: response.status, body: (await response.json()) as { redis: string } };
  };

  beforeAll(async () => {
    database = await scratchDatabase(postgresAdminUrl, "chorus_nodes");
    redis = await startRedis();
    env = { DATABASE_URL: postgresUrlFor(database.name), REDIS_URL: redis.url, OFFLINE_MODEL_DELAY_MS: "150" };
    // Both nodes migrate the empty database at the same moment: the migrator's lock serialises them.
    nodes = await Promise.all([startNode(env), startNode(env)]);
    db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) }, { migrate: false });
    const created = await createProjectWithChannel(db.prisma);
    projectId = created.project.id;
    channelId = created.channel.id;
  }, 90_000);

  afterAll(async () => {
    sockets.forEach((socket) => socket.disconnect());
    await Promise.all(nodes.map((node) => node.stop()));
    await db?.close();
    await redis?.stop();
    await database?.drop();
  });

  it("delivers messages, activity, typing and reads between people on different nodes", async () => {
    expect(nodeA().url).not.toBe(nodeB().url);
    const alice = await signUpOn(nodeA().url, "Alice");
    const bob = await signUpOn(nodeB().url, "Bob");

    const aliceOnA = track(await connectTo(nodeA().url, alice.cookie));
    const bobOnB = track(await connectTo(nodeB().url, bob.cookie));
    const bobSidebarOnA = track(await connectTo(nodeA().url, bob.cookie));
    await emitWithAck(aliceOnA, "conversation:join", { conversationId: channelId });
    await emitWithAck(bobOnB, "conversation:join", { conversationId: channelId });

    const delivered = nextEvent(bobOnB, "message:created");
    const activity = nextEvent(bobSidebarOnA, "conversation:activity");
    const sent = await emitWithAck<Ack<MessageDto>>(aliceOnA, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "hello from node A" });
    expect(sent).toMatchObject({ data: { content: "hello from node A" } });
    const message = (sent as { data: MessageDto }).data;
    expect(await delivered).toEqual(message);
    expect(await activity).toEqual<ConversationActivity>({ conversationId: channelId, seq: message.seq, authorUserId: alice.id, authorName: "Alice", preview: "hello from node A", mentionedUserIds: [] });

    const typing = nextEvent(aliceOnA, "typing");
    await emitWithAck(bobOnB, "typing:start", { conversationId: channelId });
    expect(await typing).toMatchObject({ actor: { id: bob.id, name: "Bob" }, typing: true });

    const readElsewhere = nextEvent(bobSidebarOnA, "read:updated");
    await emitWithAck(bobOnB, "conversation:read", { conversationId: channelId, seq: message.seq });
    expect(await readElsewhere).toMatchObject({ id: channelId, unread: 0, lastReadSeq: message.seq });
  });

  it("edits, reactions and deletions made on one node reach a socket on the other, live", async () => {
    const erin = await signUpOn(nodeA().url, "Erin");
    const frank = await signUpOn(nodeB().url, "Frank");
    const erinOnA = track(await connectTo(nodeA().url, erin.cookie));
    const frankOnB = track(await connectTo(nodeB().url, frank.cookie));
    for (const socket of [erinOnA, frankOnB]) await emitWithAck(socket, "conversation:join", { conversationId: channelId });
    const sent = (await emitWithAck<Ack<MessageDto>>(erinOnA, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "draft wording" })) as { data: MessageDto };
    const messageId = sent.data.id;

    const edited = nextEvent(frankOnB, "message:updated");
    expect(await emitWithAck(erinOnA, "message:edit", { messageId, content: "final wording" })).toMatchObject({ data: { message: { content: "final wording" } } });
    expect(await edited).toMatchObject({ id: messageId, content: "final wording", version: 2 });

    const reacted = nextEvent(frankOnB, "message:updated");
    await emitWithAck(erinOnA, "message:react", { messageId, emoji: "🎉", reacted: true });
    expect(await reacted).toMatchObject({ id: messageId, content: "final wording", reactions: [{ emoji: "🎉", users: [{ id: erin.id }] }] });

    const deleted = nextEvent(frankOnB, "message:deleted");
    await emitWithAck(erinOnA, "message:delete", { messageId });
    expect(await deleted).toMatchObject({ id: messageId, content: "", deleted: { byAdmin: false } });
  });

  it("recovers a dropped socket's state on the other node: it can type, drop and recover again", async () => {
    const carol = await signUpOn(nodeA().url, "Carol");
    const dave = await signUpOn(nodeB().url, "Dave");
    const daveOnB = track(await connectTo(nodeB().url, dave.cookie));
    await emitWithAck(daveOnB, "conversation:join", { conversationId: channelId });

    let socket = track(await connectTo(nodeA().url, carol.cookie));
    await emitWithAck(socket, "conversation:join", { conversationId: channelId });
    await emitWithAck(socket, "typing:start", { conversationId: channelId });
    for (const target of [nodeB(), nodeA()]) {
      // Something arrives (it carries the offset to recover from), then the network drops.
      const arrived = nextEvent(socket, "message:created");
      await emitWithAck(daveOnB, "message:send", { conversationId: channelId, clientId: randomUUID(), content: `before the drop to ${target.url}` });
      await arrived;
      const { _pid: pid, _lastOffset: offset } = socket as unknown as { _pid: string; _lastOffset: string };
      const previousId = socket.id;
      socket.io.engine.close();
      await until(() => socket.disconnected, "the drop");
      // The node keeps the session in Redis as it notices the drop, a moment later.
      await new Promise((resolve) => setTimeout(resolve, 300));

      // A new client object, as a browser reconnecting to whichever node the balancer picks.
      socket = track(await connectTo(target.url, carol.cookie, { auth: { pid, offset } }));
      expect(socket.id).toBe(previousId); // the node restored the session from Redis
      const typingSeen = nextEvent(daveOnB, "typing");
      // The restored room (no join here) and typing state work: no "internal" error, no crash.
      expect(await emitWithAck(socket, "typing:start", { conversationId: channelId })).toEqual({ data: null });
      expect(await typingSeen).toMatchObject({ actor: { id: carol.id }, typing: true });
    }
    const stopped = nextEvent(daveOnB, "typing");
    socket.disconnect();
    expect(await stopped).toMatchObject({ actor: { id: carol.id }, typing: false });
    expect(nodes.every((node) => node.child.exitCode === null)).toBe(true);
    expect(nodes.map((node) => node.output()).join("")).not.toMatch(/not iterable|uncaught/i);
  });

  it("ends a session's sockets on both nodes when it signs out on one", async () => {
    const erin = await signUpOn(nodeA().url, "Erin");
    const onA = track(await connectTo(nodeA().url, erin.cookie));
    const onB = track(await connectTo(nodeB().url, erin.cookie));
    const endedOnB = nextEvent(onB, "session:ended");

    const response = await fetch(`${nodeA().url}/api/auth/sign-out`, { method: "POST", headers: { cookie: erin.cookie, origin: nodeA().url, "content-type": "application/json" }, body: "{}" });
    expect(response.status).toBe(200);

    expect(await endedOnB).toEqual<SessionEnded>({ reason: "signed_out" });
    await until(() => onA.disconnected && onB.disconnected, "both sockets to be disconnected");
    await expect(connectTo(nodeB().url, erin.cookie)).rejects.toThrow(/signed out/i);
  });

  it("deactivating a person ends their sockets on both nodes at once and refuses their sign-in on either", async () => {
    const hana = await signUpOn(nodeA().url, "Hana");
    const ivo = await signUpOn(nodeB().url, "Ivo");
    await db.prisma.user.update({ where: { id: ivo.id }, data: { role: "admin" } });
    const onA = track(await connectTo(nodeA().url, hana.cookie));
    const onB = track(await connectTo(nodeB().url, hana.cookie));
    const ended = [nextEvent(onA, "session:ended"), nextEvent(onB, "session:ended")];
    // The admin's request is served by a third process on the same Redis, which holds none of Hana's sockets.
    const link = await connectRedisAdapter(redis.url);
    const adminNode = createRealtimeServer(createServer(), { prisma: db.prisma, getSession: async () => null, allowedOrigins: [], adapter: link.adapter });
    try {
      await deactivatePerson({ prisma: db.prisma, endSession: (sessionId) => adminNode.publisher.sessionEnded(sessionId, "signed_out") }, { userId: hana.id, actorId: ivo.id });

      expect(await Promise.all(ended)).toEqual<SessionEnded[]>([{ reason: "signed_out" }, { reason: "signed_out" }]);
      await until(() => onA.disconnected && onB.disconnected, "both of Hana's sockets to end");
      for (const node of nodes) {
        const response = await fetch(`${node.url}/api/auth/sign-in/email`, {
          method: "POST",
          headers: { "content-type": "application/json", origin: node.url },
          body: JSON.stringify({ email: hana.email, password: "two-nodes-1" }),
        });
        expect(response.status).toBe(403);
      }
    } finally {
      await adminNode.close();
      await link.close();
    }
  });

  it("reports a Redis outage in /api/health and brings connected clients up to date when Redis is back", async () => {
    const frank = await signUpOn(nodeA().url, "Frank");
    const gina = await signUpOn(nodeB().url, "Gina");
    const frankOnA = track(await connectTo(nodeA().url, frank.cookie));
    const ginaOnB = track(await connectTo(nodeB().url, gina.cookie));
    const store = memoryStore();
    const held = store.held;
    // No periodic check in this test: only the server's hint can bring the lost message.
    const sync = new ConversationSync(frankOnA, channelId, store, { checkEveryMs: 600_000 });
    sync.start();
    await until(() => held.size > 0, "Frank's first catch-up");
    expect(await health(nodeA())).toMatchObject({ status: 200, body: { redis: "up" } });

    await redis.stop();
    await until(async () => (await health(nodeA())).status === 503, "health to report Redis down");
    expect((await health(nodeA())).body.redis).toBe("down");
    const sent = await emitWithAck<Ack<MessageDto>>(ginaOnB, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "sent while Redis was down" });
    const lost = (sent as { data: MessageDto }).data;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(held.has(lost.id)).toBe(false);

    redis = await startRedis(redis.port);
    await until(() => held.has(lost.id), "the message sent during the outage", 20_000);
    expect(held.get(lost.id)).toEqual(lost);
    await until(async () => (await health(nodeA())).status === 200, "health to report Redis up");
    sync.stop();
  }, 40_000);

  it("exits 0 on SIGTERM within seconds, giving its running agent turn to the other node at once", async () => {
    const agent = await db.prisma.agent.create({
      data: { projectId, handle: "toby", displayName: "Toby", color: "#0ea5e9", systemPrompt: "You are Toby.", provider: "offline", model: "offline-1" },
    });
    await db.prisma.participant.create({ data: { conversationId: channelId, agentId: agent.id } });
    const hana = await signUpOn(nodeA().url, "Hana");
    const ivan = await signUpOn(nodeB().url, "Ivan");
    const hanaOnA = track(await connectTo(nodeA().url, hana.cookie));
    const ivanOnB = track(await connectTo(nodeB().url, ivan.cookie));
    await emitWithAck(ivanOnB, "conversation:join", { conversationId: channelId });
    const firstDelta = nextEvent(ivanOnB, "message:delta");
    const reply = new Promise<MessageDto>((resolve) =>
      ivanOnB.on("message:created", (message) => {
        if (message.author.kind === "agent") resolve(message);
      }),
    );

    // Posted on node A, so node A's worker takes the turn at once; the offline model paces it over seconds.
    await emitWithAck(hanaOnA, "message:send", { conversationId: channelId, clientId: randomUUID(), content: "@toby what is new?" });
    const { dispatchId } = (await firstDelta) as MessageDelta;

    const stopped = await nodeA().stop();
    expect(stopped.code).toBe(0);
    expect(stopped.ms).toBeLessThan(5_000);
    expect(nodeA().output()).not.toMatch(/took too long/);
    // Released, not left to its 60-second lease: the other node answers within its poll.
    const answered = await Promise.race([reply, new Promise<null>((resolve) => setTimeout(() => resolve(null), 15_000))]);
    expect(answered).toMatchObject({ author: { kind: "agent", id: agent.id }, metadata: { dispatchId, provider: "offline" } });
    expect(await db.prisma.message.count({ where: { authorAgentId: agent.id } })).toBe(1);
    expect(await db.prisma.dispatch.findUniqueOrThrow({ where: { id: dispatchId } })).toMatchObject({ status: "done", attempt: 2, failures: 0 });
  }, 40_000);

  it("a panel asked on one node is watched live on another, which finishes it when the first node stops", async () => {
    const nodeC = await startNode(env);
    nodes.push(nodeC);
    const { id: conversationId } = await createChannel(db.prisma, { projectId, name: "panel-room" });
    for (const handle of ["ada", "sage"]) {
      const agent = await db.prisma.agent.create({ data: { projectId, handle, displayName: handle, color: "#0ea5e9", systemPrompt: `You are ${handle}.`, provider: "offline", model: "offline-1" } });
      await db.prisma.participant.create({ data: { conversationId, agentId: agent.id } });
    }
    // Newcomers join the project's channels, this one included.
    const [jun, kim] = [await signUpOn(nodeC.url, "Jun"), await signUpOn(nodeB().url, "Kim")];
    const junOnC = track(await connectTo(nodeC.url, jun.cookie));
    const kimOnB = track(await connectTo(nodeB().url, kim.cookie));
    for (const socket of [junOnC, kimOnB]) await emitWithAck(socket, "conversation:join", { conversationId });
    const views: PanelView[] = [];
    const deltas: PanelDelta[] = [];
    kimOnB.on("panel:updated", (view) => views.push(view));
    kimOnB.on("panel:delta", (delta) => deltas.push(delta));
    const finals: MessageDto[] = [];
    kimOnB.on("message:created", (message) => {
      if (message.metadata.panel) finals.push(message);
    });

    // Asked on node C, whose worker takes the panel at once; the offline model is paced, so it is mid-answer when C stops.
    const asked = await emitWithAck<Ack<MessageDto>>(junOnC, "message:send", { conversationId, clientId: randomUUID(), content: "@panel @ada @sage what do we name it?" });
    const panelId = (asked as { data: MessageDto }).data.metadata.panelId!;
    await until(() => deltas.some((delta) => delta.panelId === panelId), "Kim on node B to see an answer streaming from node C");
    expect(views.some((view) => view.id === panelId && view.agents.some((agent) => agent.state === "working"))).toBe(true);
    expect(await db.prisma.panel.findUniqueOrThrow({ where: { id: panelId } })).toMatchObject({ status: "running" });

    expect((await nodeC.stop()).code).toBe(0);
    // Given back on stop, not left to its 30-second lease: node B resumes it within its poll and posts the one final answer.
    await until(() => finals.length > 0, "node B to finish the panel", 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(finals).toHaveLength(1);
    expect(finals[0]!.metadata.panel).toMatchObject({ panelId });
    expect(views.filter((view) => view.id === panelId).at(-1)).toMatchObject({ status: "finished", finalMessageId: finals[0]!.id });
    const turns = await db.prisma.panelTurn.findMany({ where: { panelId } });
    expect(turns.some((turn) => turn.status === "restarted")).toBe(true);
  }, 60_000);

  it("an ask-first call waits through a restart; approved elsewhere, the turn goes on once, on whichever node finds it", async () => {
    const kit = await startHttpMcpServer();
    try {
      const agent = await db.prisma.agent.create({ data: { projectId, handle: "keeper", displayName: "Keeper", color: "#0ea5e9", systemPrompt: "You keep notes.", provider: "offline", model: "offline-1" } });
      const server = await db.prisma.mcpServer.create({ data: { projectId, name: "kit", transport: "http", url: kit.url } });
      await db.prisma.agentTool.create({ data: { agentId: agent.id, serverId: server.id, toolName: "add", askFirst: true } });
      const { id: conversationId } = await createChannel(db.prisma, { projectId, name: "approvals" });
      await db.prisma.participant.create({ data: { conversationId, agentId: agent.id } });
      const asker = await startNode(env);
      nodes.push(asker);
      const lia = await signUpOn(asker.url, "Lia");
      const liaOnAsker = track(await connectTo(asker.url, lia.cookie));
      const liaOnB = track(await connectTo(nodeB().url, lia.cookie));
      const seen: MessageDto[] = [];
      for (const socket of [liaOnAsker, liaOnB]) await emitWithAck(socket, "conversation:join", { conversationId });
      liaOnB.on("message:created", (message) => seen.push(message));
      liaOnB.on("message:updated", (message) => seen.push(message));

      await emitWithAck(liaOnAsker, "message:send", { conversationId, clientId: randomUUID(), content: '@keeper use kit__add with {"a": 2, "b": 3}' });
      const pendingCall = () => seen.flatMap((message) => message.metadata.toolStep?.calls ?? []).find((call) => call.approval === "pending");
      await until(() => pendingCall() !== undefined, "the approval card on node B", 15_000);

      // The node that ran the turn restarts while the call waits: nothing is held, nothing is lost.
      expect((await asker.stop()).code).toBe(0);
      nodes.push(await startNode(env));
      // Decided by a third process (these nodes serve no pages): no node is told, they find it at their poll.
      const actor = { id: lia.id, name: "Lia", email: lia.email, role: "member" as const };
      const decided = await decideToolCall({ prisma: db.prisma, publisher: noopPublisher, wake: () => undefined }, { actor, approvalId: pendingCall()!.approvalId!, decision: { kind: "approve" } });
      expect(decided).toMatchObject({ status: "approved", decidedBy: "Lia" });

      const isReply = (message: MessageDto) => message.author.kind === "agent" && message.role === "assistant" && !message.metadata.toolStep;
      await until(() => seen.some(isReply), "Keeper's answer", 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(seen.filter(isReply).map((message) => message.content)).toEqual([expect.stringContaining("5")]);
      expect(kit.calls).toEqual(["add"]);
      expect(await db.prisma.message.count({ where: { conversationId, role: "tool" } })).toBe(1);
    } finally {
      await kit.close();
    }
  }, 90_000);
});
