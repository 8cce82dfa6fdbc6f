"use client";

import { useEffect, useSyncExternalStore } from "react";
import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "@/lib/realtime/events";

export type ChorusClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

export type SocketStatus = "connecting" | "connected" | "reconnecting" | "unavailable" | "signed-out" | "refused";

export interface SocketState {
  status: SocketStatus;
  /** The server's own words when it refused the connection. */
  detail: string | null;
}

let socket: ChorusClientSocket | null = null;
let state: SocketState = { status: "connecting", detail: null };
const listeners = new Set<() => void>();

function setState(next: SocketState): void {
  state = next;
  listeners.forEach((listener) => listener());
}

/** A refusal the server explains (middleware error) is not retried by Socket.IO itself. */
const RETRY_REFUSED_MS = 5_000;

/** One socket per tab, shared by every hook; the session cookie authenticates it. */
export function getSocket(): ChorusClientSocket {
  if (socket) return socket;
  // A connection attempt that hangs (a network switching over) is given up after 5 s and retried,
  // instead of Socket.IO's default 20 s of "Reconnecting…".
  const created: ChorusClientSocket = io({ withCredentials: true, transports: ["websocket", "polling"], timeout: 5_000 });
  socket = created;
  created.on("connect", () => setState({ status: "connected", detail: null }));
  created.on("session:ended", () => setState({ status: "signed-out", detail: null }));
  created.on("disconnect", (reason) => {
    // The server ends a connection itself only when its session ended.
    if (reason === "io server disconnect") setState({ status: "signed-out", detail: null });
    else setState({ status: "reconnecting", detail: null });
  });
  created.on("connect_error", (error) => {
    const code = (error as Error & { data?: { code?: string } }).data?.code;
    if (code === "unauthorized") return setState({ status: "signed-out", detail: null });
    if (code === "forbidden") return setState({ status: "refused", detail: error.message });
    if (code) setTimeout(() => created.connect(), RETRY_REFUSED_MS);
    // Transport errors: Socket.IO keeps retrying with backoff.
    setState({ status: state.status === "connecting" || state.status === "reconnecting" || state.status === "unavailable" ? "unavailable" : state.status, detail: null });
  });
  return created;
}

/** What a hook listens to on the tab's socket: server events, and the socket's own connect and disconnect. */
export type SocketListeners = Partial<ServerToClientEvents> & { connect?: () => void; disconnect?: () => void };

/** Adds the listeners to the socket and returns what removes them, for an effect's clean-up. */
export function listenTo(socket: ChorusClientSocket, listeners: SocketListeners): () => void {
  // Each entry pairs an event with its own listener type, a pairing a loop cannot state to TypeScript.
  const emitter = socket as unknown as { on(event: string, listener: unknown): void; off(event: string, listener: unknown): void };
  const entries = Object.entries(listeners);
  for (const [event, listener] of entries) emitter.on(event, listener);
  return () => entries.forEach(([event, listener]) => emitter.off(event, listener));
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
