import { DEFAULT_PREFERENCES } from "@/lib/account/preferences";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { UserSession } from "@/lib/auth/session-user";
import type { SessionEnded } from "./events";
import { watchSessionExpiry } from "./session-expiry";
import type { ChorusSocket } from "./socket-handlers";

const user = { id: "u1", name: "Ann", email: "ann@example.test", role: "member" as const };

function fakeSocket(expiresAt: number) {
  const listeners = new Map<string, () => void>();
  const socket = {
    disconnected: false,
    data: { user, sessionId: "s1", sessionExpiresAt: expiresAt, typingIn: [] as string[] },
    on: (event: string, listener: () => void) => listeners.set(event, listener),
    disconnect: () => {
      socket.disconnected = true;
      listeners.get("disconnect")?.();
    },
  };
  return socket;
}

describe("watchSessionExpiry", () => {
  beforeEach(() => vi.useFakeTimers({ now: 0 }));
  afterEach(() => vi.useRealTimers());

  const watch = (socket: ReturnType<typeof fakeSocket>, sessions: (UserSession | null)[]) => {
    const ended: SessionEnded["reason"][] = [];
    const getSession = vi.fn(async () => sessions.shift() ?? null);
    watchSessionExpiry(socket as unknown as ChorusSocket, { getSession, headers: () => new Headers(), end: (reason) => ended.push(reason) });
    return { ended, getSession };
  };

  it("ends the connection as expired when the session is gone at its expiry", async () => {
    const { ended, getSession } = watch(fakeSocket(10_000), [null]);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(getSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(ended).toEqual(["expired"]);
  });

  it("follows a session that was extended meanwhile, and ends it at the new expiry", async () => {
    const socket = fakeSocket(10_000);
    const { ended } = watch(socket, [{ user, session: { id: "s1", expiresAt: 50_000 }, preferences: DEFAULT_PREFERENCES, avatar: { color: null, avatarUrl: null } }, null]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(ended).toEqual([]);
    expect(socket.data.sessionExpiresAt).toBe(50_000);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(ended).toEqual(["expired"]);
  });

  it("waits in steps setTimeout can hold for a session that lasts a month", async () => {
    const month = 30 * 24 * 3600 * 1000;
    const { ended, getSession } = watch(fakeSocket(month), [null]);
    await vi.advanceTimersByTimeAsync(2 ** 31);
    expect(getSession).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(month - 2 ** 31);
    expect(ended).toEqual(["expired"]);
  });

  it("stops watching a socket that disconnected", async () => {
    const socket = fakeSocket(10_000);
    const { getSession } = watch(socket, [null]);
    socket.disconnect();
    await vi.advanceTimersByTimeAsync(20_000);
    expect(getSession).not.toHaveBeenCalled();
  });
});
