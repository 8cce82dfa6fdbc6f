import { createAdapter } from "@socket.io/redis-streams-adapter";
import { createClient } from "redis";
import { log } from "@/lib/log/logger";

export class RedisStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisStartupError";
  }
}

export interface RedisLink {
  adapter: ReturnType<typeof createAdapter>;
  /** "up" while commands go through; broadcasts made while "down" are lost. */
  status(): "up" | "down";
  close(): Promise<void>;
}

/**
 * The Socket.IO adapter that lets several nodes serve the same rooms (Redis streams: it also
 * supports connection-state recovery). Broadcasts sent while Redis is unreachable are lost, so
 * `onReconnect` lets the node tell its clients to catch up from the database.
 */
export async function connectRedisAdapter(url: string, { onReconnect }: { onReconnect?: () => void } = {}): Promise<RedisLink> {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(retries * 200, 5_000) } });
  let lost = false;
  // After start-up, a lost connection is retried by the client; errors are reported, not thrown.
  client.on("error", (error: Error) => {
    if (!lost) log.warn("redis connection lost", { error: error.message });
    lost = true;
  });
  client.on("end", () => (lost = true));
  client.on("ready", () => {
    if (!lost) return;
    lost = false;
    log.info("redis connection back: clients are told to catch up");
    onReconnect?.();
  });
  try {
    await client.connect();
  } catch (error) {
    throw new RedisStartupError(
      `Redis at ${new URL(url).host} is unreachable (${error instanceof Error ? error.message : String(error)}). Check REDIS_URL, or unset it to run a single node.`,
    );
  }
  return {
    adapter: createAdapter(client),
    status: () => (client.isReady ? "up" : "down"),
    // quit() waits for the replies of queued commands, which never come while Redis is down.
    close: async () => {
      if (client.isReady) await Promise.race([client.quit().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      if (client.isOpen) client.destroy();
    },
  };
}
