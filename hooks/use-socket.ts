"use client";

import { useEffect, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/realtime/events";

export type ChorusClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export interface SocketState {
  status: "connecting" | "connected" | "disconnected";
  /** Why the server refused the connection, in words a person can act on. */
  error: string | null;
}

let socket: ChorusClientSocket | null = null;
let state: SocketState = { status: "connecting", error: null };
const listeners = new Set<() => void>();

function setState(next: SocketState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

/** One socket per tab, shared by every hook; the session cookie authenticates it. */
export function getSocket(): ChorusClientSocket {
  if (socket) return socket;
  // A connection attempt that hangs (a network switching over) is given up after 5 s and retried,
  // instead of Socket.IO's default 20 s of "Reconnecting…".
  socket = io({ withCredentials: true, transports: ["websocket", "polling"], timeout: 5_000 });
  socket.on("connect", () => setState({ status: "connected", error: null }));
  socket.on("disconnect", () => setState({ status: "disconnected", error: null }));
  socket.on("connect_error", (error) => setState({ status: "disconnected", error: error.message }));
  return socket;
}

export function useSocketState(): SocketState {
  useEffect(() => void getSocket(), []);
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
