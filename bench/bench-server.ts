import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "better-auth/node";
import { io as connectSocket } from "socket.io-client";
import { getSessionUser } from "@/lib/auth/session-user";
import { readEnv } from "@/lib/config/env";
import { openDatabase } from "@/lib/db/open-database";
import type { ClientSocket } from "@/test/support/test-app";
import { createRealtimeServer } from "@/lib/realtime/create-realtime-server";
import { createRuntimeFor } from "@/lib/runtime/runtime";

/** The real server half (PGlite in memory, auth, Socket.IO) on a random port, for measuring. */
export async function startBenchServer() {
  const db = await openDatabase({ engine: "pglite", dataDir: null });
  const runtime = createRuntimeFor(db, readEnv({ NODE_ENV: "production", DATA_DIR: "/nonexistent", PORT: "0", LOG_LEVEL: "error" }));
  const httpServer = createServer(toNodeHandler(runtime.auth));
  const realtime = createRealtimeServer(httpServer, {
    prisma: db.prisma,
    getSessionUser: (headers) => getSessionUser(runtime.auth, headers),
    allowedOrigins: [],
  });
  runtime.realtime = realtime.publisher;
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;

  const signUp = async (name: string) => {
    const response = await runtime.auth.api.signUpEmail({
      body: { name, email: `${name}.${randomBytes(4).toString("hex")}@bench.test`, password: "bench-password-1" },
      asResponse: true,
    });
    const { user } = (await response.json()) as { user: { id: string } };
    return { id: user.id, cookie: response.headers.getSetCookie().map((header) => header.split(";")[0]).join("; ") };
  };

  const connect = (cookie: string) =>
    new Promise<ClientSocket>((resolve, reject) => {
      const socket: ClientSocket = connectSocket(url, { transports: ["websocket"], forceNew: true, reconnection: false, extraHeaders: { cookie, origin: url } });
      socket.once("connect", () => resolve(socket));
      socket.once("connect_error", reject);
    });

  return {
    db,
    runtime,
    url,
    signUp,
    connect,
    async close() {
      await realtime.close();
      httpServer.close();
      await db.close();
    },
  };
}
