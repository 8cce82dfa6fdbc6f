import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "better-auth/node";
import { getSessionUser } from "@/lib/auth/session-user";
import type { Env } from "@/lib/config/env";
import type { Database } from "@/lib/db/open-database";
import { log } from "@/lib/log/logger";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { noopPublisher } from "@/lib/realtime/publisher";
import { connectRedisAdapter } from "@/lib/realtime/redis-adapter";
import { closeRuntime, initRuntime, startAgents } from "@/lib/runtime/runtime";

type RequestHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ChorusServer {
  port: number;
  close(): Promise<void>;
}

/**
 * Composes one node: runtime (auth, seed), HTTP server, Socket.IO (with the Redis adapter when
 * REDIS_URL is set). `handle` is Next's request handler; without it only the auth API is served
 * (a realtime-only node, as the two-node test runs).
 */
export async function startChorus({ env, db, handle }: { env: Env; db: Database; handle?: RequestHandler }): Promise<ChorusServer> {
  const runtime = await initRuntime(env, db);
  const redis = env.REDIS_URL ? await connectRedisAdapter(env.REDIS_URL) : null;
  const httpServer = createServer(handle ?? toNodeHandler(runtime.auth));
  const realtime = createRealtimeServer(httpServer, {
    prisma: db.prisma,
    getSessionUser: (headers) => getSessionUser(runtime.auth, headers),
    allowedOrigins: env.APP_URL ? [new URL(env.APP_URL).origin] : [],
    adapter: redis?.adapter,
    wakeDispatcher: (dispatchIds: string[]) => runtime.dispatcher?.wake(dispatchIds),
    stopTurn: (dispatchId) => runtime.turns.stop(dispatchId),
  });
  runtime.realtime = realtime.publisher;
  startAgents(runtime, { offlineChunkDelayMs: env.OFFLINE_MODEL_DELAY_MS });

  await new Promise<void>((resolve, reject) => {
    httpServer.once("error", reject);
    httpServer.listen(env.PORT, env.HOST, resolve);
  });
  const { port } = httpServer.address() as AddressInfo;
  log.info(`Chorus ready on http://localhost:${port}`, { database: db.engine, redis: Boolean(redis) });

  return {
    port,
    async close() {
      runtime.realtime = noopPublisher;
      httpServer.close();
      await realtime.close();
      await redis?.close();
      await closeRuntime();
    },
  };
}
