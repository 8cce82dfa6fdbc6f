import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "better-auth/node";
import { getUserSession } from "@/lib/auth/session-user";
import type { Env } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { attachmentLimits } from "@/lib/attachments/attachment-limits";
import { createRequestGuard } from "@/lib/http/guard-request";
import { markSeen } from "@/lib/people/last-seen";
import { log } from "@/lib/log/logger";
import { embedderFor } from "@/lib/memory/memory-runtime";
import { createPushNotifier, withWebPush } from "@/lib/notifications/push-notifier";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { noopPublisher } from "@/lib/realtime/publisher";
import { connectRedisAdapter } from "@/lib/realtime/redis-adapter";
import { startRetentionSweep } from "@/lib/retention/retention-sweep";
import { closeRuntime, initRuntime, startAgents, startMemory, stopAgents, postingDeps } from "@/lib/runtime/runtime";

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ChorusServer {
  port: number;
  /** Graceful: see docs/architecture.md, "Shutdown". */
  /** `stage` is told each stage as it starts (see exitOnSignals). */
  close(stage?: (name: string) => void): Promise<void>;
}

/** How long shutdown waits for requests and socket events already being answered. */
const DRAIN_MS = 3_000;

/**
 * Composes one node: runtime (auth, seed), background work (agents, memory, retention), HTTP
 * server, Socket.IO (with the Redis adapter when REDIS_URL is set). `handle` is Next's request
 * handler; without it only the auth API is served (a realtime-only node, as the two-node test
 * and the soak run).
 */
export async function startChorus({ env, db, handle }: { env: Env; db: Database; handle?: RequestHandler }): Promise<ChorusServer> {
  const runtime = await initRuntime(env, db);
  await startMemory(runtime, embedderFor(env));
  const redis = env.REDIS_URL ? await connectRedisAdapter(env.REDIS_URL, { onReconnect: () => runtime.realtime.resync() }) : null;
  if (redis) runtime.redisStatus = redis.status;
  const requests = createRequestGuard({ trustedProxies: env.TRUST_PROXY, allowedOrigins: env.allowedOrigins, attachmentMaxBytes: attachmentLimits(env).maxBytes });
  const httpServer = createServer(requests.wrap(handle ?? toNodeHandler(runtime.auth)));
  const realtime = createRealtimeServer(httpServer, {
    prisma: db.prisma,
    getSession: (headers) => getUserSession(runtime.auth, headers),
    allowedOrigins: env.allowedOrigins,
    trustedProxies: env.TRUST_PROXY,
    adapter: redis?.adapter,
    posting: postingDeps(runtime),
    stopTurn: (dispatchId) => runtime.turns.stop(dispatchId),
    markSeen: (userId) => markSeen(db.prisma, userId),
  });
  // Every new message is also pushed to the browsers of people it tells something (Web Push).
  const push = runtime.webPush && createPushNotifier({ prisma: db.prisma, keys: runtime.webPush });
  runtime.realtime = push ? withWebPush(realtime.publisher, push) : realtime.publisher;
  startAgents(runtime, { offlineChunkDelayMs: env.OFFLINE_MODEL_DELAY_MS });
  runtime.retention = startRetentionSweep({
    prisma: db.prisma,
    policy: { snapshotDays: env.RETENTION_SNAPSHOT_DAYS, jobDays: env.RETENTION_JOB_DAYS },
    attachments: { store: runtime.attachments.store, unsentHours: env.ATTACHMENT_UNSENT_HOURS },
  });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(env.PORT, env.HOST, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  log.info(`Chorus ready on http://localhost:${port}`, { database: db.engine, redis: Boolean(redis) });

  return {
    port,
    async close(stage = () => {}) {
      // No new connections; what is being answered finishes and is announced while the
      // sockets and the Redis link are still up.
      stage("draining requests and sockets");
      httpServer.close();
      await Promise.all([requests.drain(DRAIN_MS), realtime.drain(DRAIN_MS)]);
      // Running agent turns give their dispatch back: another node answers at once.
      stage("stopping agent turns and panels");
      await stopAgents(runtime);
      // Sockets go (recoverably): they reconnect to another node and catch up from the database.
      stage("closing sockets and Redis");
      await realtime.close();
      runtime.realtime = noopPublisher;
      await redis?.close();
      stage("stopping background work and the database");
      await push?.settled();
      await closeRuntime();
      httpServer.closeAllConnections();
    },
  };
}
