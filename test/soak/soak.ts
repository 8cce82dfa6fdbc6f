import { parseArgs } from "node:util";
import { openDatabase } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { postgresAdminUrl, postgresUrlFor } from "../support/database-mode";
import { createProjectWithChannel } from "../support/fixtures";
import { freePort, scratchDatabase, signUpOn, startNode, type NodeProcess } from "../support/node-process";
import { runAgentsSoak } from "./agents-soak";
import { SoakClient } from "./soak-client";

/**
 * `npm run soak [-- --seconds 300]`: two Chorus nodes on this machine's PostgreSQL and Redis,
 * people posting in one channel (some asking an agent), forced disconnects every ~15 s and one
 * node restarted halfway; people also edit their messages and react. Afterwards every client must
 * hold exactly what the database holds: nothing lost, nothing twice, each sender's messages in the
 * order sent, every edit and reaction as it is now. Exits 1 otherwise.
 * `--agents` soaks background work instead (agent turns, panels, ingestion, session ends; see agents-soak.ts).
 */
const { values } = parseArgs({
  options: { seconds: { type: "string", default: "60" }, clients: { type: "string", default: "24" }, settle: { type: "string", default: "45" }, agents: { type: "boolean", default: false } },
});
const seconds = Number(values.seconds);
const clientCount = Number(values.clients);
const settleSeconds = Number(values.settle);
const redisUrl = process.env.CHORUS_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = (min: number, max: number) => min + Math.random() * (max - min);

async function main(): Promise<number> {
  const database = await scratchDatabase(postgresAdminUrl, "chorus_soak");
  const ports = [await freePort(), await freePort()];
  const env = (port: number) => ({ DATABASE_URL: postgresUrlFor(database.name), REDIS_URL: redisUrl, PORT: String(port), OFFLINE_MODEL_DELAY_MS: "20" });
  const nodes: NodeProcess[] = await Promise.all(ports.map((port) => startNode(env(port))));
  const exitCodes: (number | null)[] = [];
  const db = await openDatabase({ engine: "postgres", url: postgresUrlFor(database.name) }, { migrate: false });
  const clients: SoakClient[] = [];
  try {
    const { project, channel } = await createProjectWithChannel(db.prisma, "soak");
    const agent = await db.prisma.agent.create({
      data: { projectId: project.id, handle: "echo", displayName: "Echo", color: "#0ea5e9", systemPrompt: "You answer.", provider: "offline", model: "offline-1" },
    });
    await db.prisma.participant.create({ data: { conversationId: channel.id, agentId: agent.id } });
    for (let i = 0; i < clientCount; i++) {
      const url = nodes[i % 2]!.url;
      const user = await signUpOn(url, `Soak ${i}`);
      clients.push(new SoakClient(`Soak ${i}`, url, user.cookie, channel.id));
    }
    console.log(`soak: ${clientCount} clients on 2 nodes for ${seconds} s (database ${database.name}, Redis ${redisUrl})`);

    const started = Date.now();
    const running = () => Date.now() - started < seconds * 1000;
    const senders = clients.map(async (client, index) => {
      await sleep(random(0, 2_000));
      for (let n = 0; running(); n++) {
        await client.post(Math.random() < 0.05 ? `@echo question ${n} from ${client.name}` : `message ${n} from ${client.name}`);
        if (Math.random() < 0.15) await client.editLatest();
        if (Math.random() < 0.15) await client.toggleReaction();
        await sleep(random(1_500, 4_500) + index);
      }
    });
    const faults = (async () => {
      let restarted = false;
      while (running()) {
        await sleep(random(12_000, 18_000));
        if (!running()) break;
        if (!restarted && Date.now() - started > (seconds * 1000) / 2) {
          restarted = true;
          const stopped = await nodes[0]!.stop();
          exitCodes.push(stopped.code);
          console.log(`soak: node A stopped with exit code ${stopped.code} in ${stopped.ms} ms; restarting`);
          await sleep(1_000);
          nodes[0] = await startNode(env(ports[0]!));
          continue;
        }
        const victims = clients.filter(() => Math.random() < 0.35);
        victims.forEach((client, i) => (i % 2 === 0 ? client.dropTransport() : client.reopen(random(100, 3_000))));
        console.log(`soak: forced ${victims.length} disconnects at ${Math.round((Date.now() - started) / 1000)} s`);
      }
    })();
    await Promise.all([...senders, faults]);

    // Let agents finish and every client catch up (its periodic check runs every 15 s).
    const truth = async () =>
      db.prisma.message.findMany({
        where: { conversationId: channel.id },
        select: { id: true, seq: true, authorUserId: true, content: true, metadata: true, reactions: { select: { emoji: true, user: { select: { name: true } } } } },
        orderBy: { seq: "asc" },
      });
    const settleUntil = Date.now() + settleSeconds * 1000;
    let rows = await truth();
    while (Date.now() < settleUntil) {
      const pending = await db.prisma.dispatch.count({ where: { status: { in: ["pending", "running"] } } });
      rows = await truth();
      if (pending === 0 && clients.every((client) => client.connected && rows.every((row) => client.held.has(row.id) && !isStale(client, row)))) break;
      await sleep(1_000);
    }

    const report = measure(clients, rows);
    for (const node of nodes) exitCodes.push((await node.stop()).code);
    report.nodeExitCodes = exitCodes;
    console.log(JSON.stringify(report, null, 2));
    const ok = report.lost === 0 && report.stale === 0 && report.duplicated === 0 && report.outOfOrder === 0 && report.ackedMissing === 0 && exitCodes.every((code) => code === 0);
    console.log(ok ? "soak: PASSED" : "soak: FAILED");
    return ok ? 0 : 1;
  } finally {
    clients.forEach((client) => client.close());
    await Promise.all(nodes.map((node) => node.stop()));
    await db.close();
    await database.drop();
  }
}

interface Row {
  id: string;
  seq: number;
  authorUserId: string | null;
  content: string;
  metadata: unknown;
  reactions: { emoji: string; user: { name: string } }[];
}

const reactionKey = (reactions: { emoji: string; name: string }[]) => reactions.map((reaction) => `${reaction.emoji}:${reaction.name}`).sort().join(",");

/** A client holds an older copy than the database: an edit or a reaction it never caught up on. */
function isStale(client: SoakClient, row: Row): boolean {
  const held = client.held.get(row.id);
  if (!held) return false;
  const heldReactions = held.reactions.flatMap((reaction) => reaction.users.map((user) => ({ emoji: reaction.emoji, name: user.name })));
  return held.content !== row.content || reactionKey(heldReactions) !== reactionKey(row.reactions.map((reaction) => ({ emoji: reaction.emoji, name: reaction.user.name })));
}

function measure(clients: SoakClient[], rows: Row[]) {
  const inDatabase = new Set(rows.map((row) => row.id));
  const sent = clients.flatMap((client) => client.sent);
  let outOfOrder = 0;
  for (const client of clients) client.sent.forEach((item, i) => (outOfOrder += i > 0 && item.seq <= client.sent[i - 1]!.seq ? 1 : 0));
  const delivered = clients.reduce((sum, client) => sum + rows.filter((row) => client.held.has(row.id)).length, 0);
  // Posted twice: the same person's same text, or two agent replies to one message.
  const identities = rows.map((row) => (row.authorUserId ? `${row.authorUserId}:${row.content}` : `reply:${(row.metadata as { replyToMessageId?: string }).replyToMessageId}`));
  return {
    sent: sent.length,
    agentReplies: rows.filter((row) => row.authorUserId === null).length,
    messagesInDatabase: rows.length,
    expectedDeliveries: rows.length * clients.length,
    delivered,
    lost: rows.length * clients.length - delivered,
    edited: rows.filter((row) => row.content.endsWith("(edited)")).length,
    reactions: rows.reduce((sum, row) => sum + row.reactions.length, 0),
    /** Copies held that miss an edit or a reaction the database has. */
    stale: clients.reduce((sum, client) => sum + rows.filter((row) => isStale(client, row)).length, 0),
    duplicated: identities.length - new Set(identities).size + clients.reduce((sum, client) => sum + client.duplicates, 0),
    outOfOrder,
    ackedMissing: sent.filter((item) => !inDatabase.has(item.id)).length,
    nodeExitCodes: [] as (number | null)[],
  };
}

(values.agents ? runAgentsSoak({ seconds, settleSeconds, redisUrl }) : main()).then(
  (code) => process.exit(code),
  (error: unknown) => {
    log.error("soak failed to run", { error });
    process.exit(1);
  },
);
