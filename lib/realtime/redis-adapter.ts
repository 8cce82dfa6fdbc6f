import { createAdapter } from "@socket.io/redis-streams-adapter";
import { createClient } from "redis";

export class RedisStartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RedisStartupError";
  }
}

/**
 * The Socket.IO adapter that lets several nodes serve the same rooms (Redis streams: it also
 * supports connection-state recovery).
 */
export async function connectRedisAdapter(url: string) {
  const client = createClient({ url, socket: { connectTimeout: 5_000, reconnectStrategy: (retries) => Math.min(retries * 200, 5_000) } });
  // After start-up, a lost connection is retried by the client; errors are reported, not thrown.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw new RedisStartupError(
      `Redis at ${new URL(url).host} is unreachable (${error instanceof Error ? error.message : String(error)}). Check REDIS_URL, or unset it to run a single node.`,
    );
  }
  return { adapter: createAdapter(client), close: () => client.quit().then(() => undefined) };
}
