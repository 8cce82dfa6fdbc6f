import type { UserSession } from "@/lib/auth/session-user";
import type { SessionEnded } from "./events";
import type { ChorusSocket } from "./socket-handlers";

/** setTimeout's longest delay; a 30-day session is re-checked in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Ends a socket whose session runs out while it is connected. When the recorded expiry comes,
 * the session is looked up again (activity elsewhere may have extended it): still valid, the
 * watch moves to the new expiry; gone, the connection ends as "expired".
 */
export function watchSessionExpiry(
  socket: ChorusSocket,
  { getSession, headers, end }: { getSession(headers: Headers): Promise<UserSession | null>; headers(): Headers; end(reason: SessionEnded["reason"]): void },
): void {
  let timer: NodeJS.Timeout | undefined;
  const schedule = () => {
    const delay = Math.max(0, socket.data.sessionExpiresAt - Date.now());
    timer = setTimeout(() => void check(), Math.min(delay, MAX_TIMER_MS));
  };
  const check = async () => {
    if (socket.disconnected) return;
    if (socket.data.sessionExpiresAt > Date.now()) return schedule();
    const found = await getSession(headers()).catch(() => undefined);
    if (found === undefined) {
      timer = setTimeout(() => void check(), 30_000); // the database is unreachable: ask again later
      return;
    }
    if (found && found.session.id === socket.data.sessionId && found.session.expiresAt > Date.now()) {
      socket.data.sessionExpiresAt = found.session.expiresAt;
      return schedule();
    }
    end("expired");
  };
  schedule();
  socket.on("disconnect", () => clearTimeout(timer));
}
