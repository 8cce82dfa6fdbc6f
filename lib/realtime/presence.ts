import { log } from "@/lib/log/logger";
import type { ChorusSocket } from "./socket-handlers";

/** While connected, a person is seen again this often: "last seen" is never older than this for someone online. */
const SEEN_EVERY_MS = 5 * 60_000;

/** Records when a socket's person was last here: on connecting, while connected, and on leaving. */
export function trackPresence(socket: ChorusSocket, markSeen: (userId: string) => Promise<void>): void {
  const userId = socket.data.user.id;
  const seen = () => void markSeen(userId).catch((error: unknown) => log.warn("last seen not recorded", { userId, error }));
  seen();
  const timer = setInterval(seen, SEEN_EVERY_MS).unref();
  socket.on("disconnect", () => {
    clearInterval(timer);
    seen();
  });
}
