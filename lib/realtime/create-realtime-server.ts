import type { Server as HttpServer } from "node:http";
import { Server, type ServerOptions } from "socket.io";
import type { UserSession } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { isAllowedOrigin, requestOrigin } from "@/lib/http/client-request";
import { log } from "@/lib/log/logger";
import {
  conversationRoom,
  sessionRoom,
  userRoom,
  type ClientToServerEvents,
  type InterServerEvents,
  type ServerToClientEvents,
  type SocketData,
} from "./events";
import { activityOf } from "./conversation-activity";
import type { RealtimePublisher } from "./publisher";
import { trackPresence } from "./presence";
import { watchSessionExpiry } from "./session-expiry";
import { registerSocketHandlers, type ChorusSocket } from "./socket-handlers";
import type { PostingDeps } from "@/lib/conversations/send-message";

export interface RealtimeDeps {
  prisma: Prisma;
  /** Resolves the session cookie in a handshake's headers. */
  getSession(headers: Headers): Promise<UserSession | null>;
  /** Origins allowed besides the server's own (APP_URL behind a proxy). */
  allowedOrigins: string[];
  /** TRUST_PROXY: how many proxies' X-Forwarded-* headers to believe when working out our own origin. */
  trustedProxies?: number;
  /** The Redis streams adapter when several nodes serve the same rooms; in-memory otherwise. */
  adapter?: ServerOptions["adapter"];
  /** A message asked agents to act: look for the work now (and how many may wait). */
  posting?: PostingDeps;
  /** Aborts an agent turn if it runs in this process. */
  stopTurn?: (dispatchId: string) => boolean;
  /** Records that a person is here now (their "last seen"). */
  markSeen?: (userId: string) => Promise<void>;
}

export type ChorusServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface RealtimeServer {
  io: ChorusServer;
  publisher: RealtimePublisher;
  /** Lets socket handlers that are running finish (and announce what they wrote), up to `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
  /** Disconnects every socket (they reconnect to another node and recover) and stops serving. */
  close(): Promise<void>;
}

export function createRealtimeServer(httpServer: HttpServer, deps: RealtimeDeps): RealtimeServer {
  const io: ChorusServer = new Server(httpServer, {
    serveClient: false,
    // Other upgrade requests on this port (Next's dev HMR socket) are not ours to kill.
    destroyUpgrade: false,
    // A socket that reconnects within two minutes gets the events it missed, rooms included;
    // the session is checked again on recovery (middlewares are not skipped).
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000, skipMiddlewares: false },
    ...(deps.adapter ? { adapter: deps.adapter } : {}),
  });
  const inFlight = new Set<Promise<unknown>>();

  io.use(async (socket, next) => {
    const headers = socket.handshake.headers;
    if (!isAllowedOrigin(headers.origin, requestOrigin(headers, deps.trustedProxies ?? 0), deps.allowedOrigins)) {
      log.warn("socket refused: foreign origin", { origin: headers.origin });
      return next(connectError("forbidden", "Connections from this site are not allowed."));
    }
    try {
      const found = await deps.getSession(toHeaders(headers));
      if (!found) return next(connectError("unauthorized", "You are signed out. Sign in again to get live updates."));
      adoptSession(socket, found);
      next();
    } catch (error) {
      log.error("socket session lookup failed", { error });
      next(connectError("internal", "Live updates are unavailable right now. Retrying…"));
    }
  });

  io.on("agent:stop", (dispatchId) => deps.stopTurn?.(dispatchId));

  io.on("connection", (socket) => {
    void socket.join([userRoom(socket.data.user.id), sessionRoom(socket.data.sessionId)]);
    if (deps.markSeen) trackPresence(socket, deps.markSeen);
    watchSessionExpiry(socket, { getSession: deps.getSession, headers: () => toHeaders(socket.handshake.headers), end: (reason) => publisher.sessionEnded(socket.data.sessionId, reason) });
    registerSocketHandlers(socket, {
      prisma: deps.prisma,
      publisher: () => publisher,
      ...deps.posting,
      stopTurn: (dispatchId) => {
        if (!deps.stopTurn?.(dispatchId)) io.serverSideEmit("agent:stop", dispatchId);
      },
      inFlight,
    });
  });

  const publisher: RealtimePublisher = {
    messageCreated(message, audience) {
      const room = conversationRoom(message.conversationId);
      const { mentionedUserIds, answersUserId = null } = audience;
      io.to(room).emit("message:created", message, { mentionedUserIds, answersUserId });
      if (audience.participantUserIds.length === 0) return;
      // Sockets in the room already have the message; only the others need the activity.
      io.to(audience.participantUserIds.map(userRoom)).except(room).emit("conversation:activity", activityOf(message, audience));
    },
    messageUpdated: (message) => io.to(conversationRoom(message.conversationId)).emit("message:updated", message),
    messageDeleted: (message) => io.to(conversationRoom(message.conversationId)).emit("message:deleted", message),
    readUpdated: (userId, summary) => io.to(userRoom(userId)).emit("read:updated", summary),
    conversationCreated(conversationId, userIds) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit("conversation:created", { conversationId });
    },
    conversationUpdated(update, userIds) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit("conversation:updated", update);
    },
    conversationRemoved(userId, removal) {
      // Leaving first: nothing posted after this reaches them, on any node.
      io.in(userRoom(userId)).socketsLeave(conversationRoom(removal.conversationId));
      io.to(userRoom(userId)).emit("conversation:removed", removal);
    },
    directoryChanged(userIds) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit("directory:changed");
    },
    knowledgeProgress(userIds, document) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit("knowledge:progress", document);
    },
    sessionEndUpdated: (userId, view) => io.to(userRoom(userId)).emit("memory:session-end", view),
    typing: (conversationId, actor, typing, sidebarUserIds = []) =>
      io.to([conversationRoom(conversationId), ...sidebarUserIds.map(userRoom)]).emit("typing", { conversationId, actor, typing }),
    messageDelta: (delta) => io.to(conversationRoom(delta.conversationId)).emit("message:delta", delta),
    panelUpdated: (panel) => io.to(conversationRoom(panel.conversationId)).emit("panel:updated", panel),
    panelDelta: (delta) => io.to(conversationRoom(delta.conversationId)).emit("panel:delta", delta),
    turnQueued: (turn) => io.to(conversationRoom(turn.conversationId)).emit("turn:queued", turn),
    sessionEnded(sessionId, reason) {
      // On every node (through the adapter): say why, then end the connections for good.
      io.to(sessionRoom(sessionId)).emit("session:ended", { reason });
      io.in(sessionRoom(sessionId)).disconnectSockets(true);
    },
    resync: () => io.local.emit("sync:hint"),
    status: () => ({ state: "up", connections: io.engine.clientsCount }),
  };

  return {
    io,
    publisher,
    drain: (timeoutMs) => settleWithin([...inFlight], timeoutMs),
    close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
  };
}

/**
 * The handshake's session becomes the socket's. A recovered socket comes back with the data
 * and rooms it had: data is rebuilt from the session checked just now, and the room of a
 * session it no longer has is left.
 */
function adoptSession(socket: ChorusSocket, { user, session }: UserSession): void {
  const previous = socket.recovered ? socket.data : undefined;
  if (previous?.sessionId && previous.sessionId !== session.id) void socket.leave(sessionRoom(previous.sessionId));
  const typingIn = Array.isArray(previous?.typingIn) ? previous.typingIn.filter((id): id is string => typeof id === "string") : [];
  socket.data = { user, sessionId: session.id, sessionExpiresAt: session.expiresAt, typingIn };
}

async function settleWithin(tasks: Promise<unknown>[], timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(tasks), new Promise((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

function connectError(code: string, message: string): Error {
  return Object.assign(new Error(message), { data: { code } });
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}
