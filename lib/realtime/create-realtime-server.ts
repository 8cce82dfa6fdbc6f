import type { Server as HttpServer } from "node:http";
import { Server, type ServerOptions, type Socket } from "socket.io";
import { z } from "zod";
import type { SessionUser } from "@/lib/auth/session-user";
import { assertParticipant } from "@/lib/conversations/assert-participant";
import { conversationIdSchema, postMessageInputSchema } from "@/lib/conversations/message-input";
import { sendMessage } from "@/lib/conversations/send-message";
import { listMessagesSince } from "@/lib/conversations/list-messages";
import { markRead } from "@/lib/conversations/mark-read";
import type { Prisma } from "@/lib/db/open-database";
import { AppError, toErrorPayload } from "@/lib/errors/app-error";
import { isAllowedOrigin, requestOrigin } from "@/lib/http/origin";
import { log } from "@/lib/log/logger";
import {
  conversationRoom,
  userRoom,
  type Ack,
  type ClientToServerEvents,
  type InterServerEvents,
  type ServerToClientEvents,
  type SocketData,
} from "./events";
import type { RealtimePublisher } from "./publisher";

export interface RealtimeDeps {
  prisma: Prisma;
  /** Resolves the session cookie in a handshake's headers. */
  getSessionUser(headers: Headers): Promise<SessionUser | null>;
  /** Origins allowed besides the server's own (APP_URL behind a proxy). */
  allowedOrigins: string[];
  /** The Redis streams adapter when several nodes serve the same rooms; in-memory otherwise. */
  adapter?: ServerOptions["adapter"];
  /** A message asked agents to act: look for the work now. */
  wakeDispatcher?: (dispatchIds: string[]) => void;
  /** Aborts an agent turn if it runs in this process. */
  stopTurn?: (dispatchId: string) => boolean;
}

export type ChorusServer = Server<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;
type ChorusSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface RealtimeServer {
  io: ChorusServer;
  publisher: RealtimePublisher;
  close(): Promise<void>;
}

const joinSchema = z.object({ conversationId: conversationIdSchema });
const syncSchema = z.object({ conversationId: conversationIdSchema, afterSeq: z.number().int().min(0) });
const readSchema = z.object({ conversationId: conversationIdSchema, seq: z.number().int().min(0) });
const stopSchema = z.object({ dispatchId: z.uuid({ error: "dispatchId must be a UUID." }) });

export function createRealtimeServer(httpServer: HttpServer, deps: RealtimeDeps): RealtimeServer {
  const io: ChorusServer = new Server(httpServer, {
    serveClient: false,
    // Other upgrade requests on this port (Next's dev HMR socket) are not ours to kill.
    destroyUpgrade: false,
    // A socket that reconnects within two minutes gets the events it missed, rooms included.
    connectionStateRecovery: { maxDisconnectionDuration: 2 * 60 * 1000 },
    ...(deps.adapter ? { adapter: deps.adapter } : {}),
  });

  io.use(async (socket, next) => {
    const headers = socket.handshake.headers;
    if (!isAllowedOrigin(headers.origin, requestOrigin(headers), deps.allowedOrigins)) {
      log.warn("socket refused: foreign origin", { origin: headers.origin });
      return next(connectError("forbidden", "Connections from this site are not allowed."));
    }
    try {
      const user = await deps.getSessionUser(toHeaders(headers));
      if (!user) return next(connectError("unauthorized", "You are signed out. Sign in again to get live updates."));
      socket.data.user = user;
      socket.data.typingIn = new Set();
      next();
    } catch (error) {
      log.error("socket session lookup failed", { error });
      next(connectError("internal", "Live updates are unavailable right now. Retrying…"));
    }
  });

  io.on("agent:stop", (dispatchId) => deps.stopTurn?.(dispatchId));

  io.on("connection", (socket) => {
    void socket.join(userRoom(socket.data.user.id));
    registerHandlers(socket, deps, () => publisher, (dispatchId) => {
      if (!deps.stopTurn?.(dispatchId)) io.serverSideEmit("agent:stop", dispatchId);
    });
  });

  const publisher: RealtimePublisher = {
    messageCreated(message, audience) {
      const room = conversationRoom(message.conversationId);
      io.to(room).emit("message:created", message, { mentionedUserIds: audience.mentionedUserIds });
      if (audience.participantUserIds.length === 0) return;
      // Sockets in the room already have the message; only the others need the activity.
      io.to(audience.participantUserIds.map(userRoom)).except(room).emit("conversation:activity", {
        conversationId: message.conversationId,
        seq: message.seq,
        authorUserId: message.author.kind === "user" ? message.author.id : null,
        mentionedUserIds: audience.mentionedUserIds,
      });
    },
    readUpdated: (userId, summary) => io.to(userRoom(userId)).emit("read:updated", summary),
    conversationCreated(conversationId, userIds) {
      if (userIds.length > 0) io.to(userIds.map(userRoom)).emit("conversation:created", { conversationId });
    },
    typing: (conversationId, actor, typing, sidebarUserIds = []) =>
      io.to([conversationRoom(conversationId), ...sidebarUserIds.map(userRoom)]).emit("typing", { conversationId, actor, typing }),
    messageDelta: (delta) => io.to(conversationRoom(delta.conversationId)).emit("message:delta", delta),
    status: () => ({ state: "up", connections: io.engine.clientsCount }),
  };

  return {
    io,
    publisher,
    close: () => new Promise<void>((resolve) => void io.close(() => resolve())),
  };
}

function registerHandlers(socket: ChorusSocket, deps: RealtimeDeps, publisher: () => RealtimePublisher, stopTurn: (dispatchId: string) => void): void {
  const { user } = socket.data;
  const userId = user.id;
  const actor = { kind: "user" as const, id: user.id, name: user.name };

  const setTyping = (conversationId: string, typing: boolean) => {
    if (typing) socket.data.typingIn.add(conversationId);
    else socket.data.typingIn.delete(conversationId);
    socket.to(conversationRoom(conversationId)).emit("typing", { conversationId, actor, typing });
  };

  handle(socket, "conversation:join", joinSchema, async ({ conversationId }) => {
    await assertParticipant(deps.prisma, { userId, conversationId });
    await socket.join(conversationRoom(conversationId));
    return { conversationId };
  });

  handle(socket, "conversation:leave", joinSchema, async ({ conversationId }) => {
    await socket.leave(conversationRoom(conversationId));
    return { conversationId };
  });

  handle(socket, "sync:since", syncSchema, (payload) => listMessagesSince(deps.prisma, { userId, ...payload }));

  handle(socket, "message:send", postMessageInputSchema, async (input) => {
    const { message } = await sendMessage({ prisma: deps.prisma, publisher: publisher(), wakeDispatcher: deps.wakeDispatcher }, { userId, input });
    return message;
  });

  handle(socket, "agent:stop", stopSchema, async ({ dispatchId }) => {
    const dispatch = await deps.prisma.dispatch.findUnique({ where: { id: dispatchId }, select: { conversationId: true } });
    if (!dispatch) throw new AppError("not_found", "That reply is no longer in progress.");
    await assertParticipant(deps.prisma, { userId, conversationId: dispatch.conversationId });
    stopTurn(dispatchId);
    return null;
  });

  handle(socket, "conversation:read", readSchema, async (payload) => {
    const summary = await markRead(deps.prisma, { userId, ...payload });
    publisher().readUpdated(userId, summary);
    return summary;
  });

  // Typing is ephemeral: never stored, only relayed to the room this socket has joined (joining
  // already proved it is a participant).
  handle(socket, "typing:start", joinSchema, async ({ conversationId }) => {
    if (!socket.rooms.has(conversationRoom(conversationId))) throw new AppError("forbidden", "Join the conversation before typing in it.");
    setTyping(conversationId, true);
    return null;
  });

  handle(socket, "typing:stop", joinSchema, async ({ conversationId }) => {
    if (socket.data.typingIn.has(conversationId)) setTyping(conversationId, false);
    return null;
  });

  socket.on("disconnecting", () => {
    for (const conversationId of socket.data.typingIn) setTyping(conversationId, false);
  });
}

/**
 * Validates the payload, runs the handler and acknowledges `{ data }` or `{ error }`.
 * A malformed payload or a missing ack callback never throws out of the socket.
 */
function handle<Event extends keyof ClientToServerEvents, Input, Output>(
  socket: ChorusSocket,
  event: Event,
  schema: z.ZodType<Input>,
  run: (input: Input) => Promise<Output>,
): void {
  socket.on(event, (async (payload: unknown, ack: unknown) => {
    const reply = typeof ack === "function" ? (ack as (result: Ack<Output>) => void) : () => undefined;
    const parsed = schema.safeParse(payload);
    if (!parsed.success) {
      reply({ error: toErrorPayload(new AppError("bad_request", `Invalid ${event} payload: ${parsed.error.issues[0]?.message ?? "malformed"}`)) });
      return;
    }
    try {
      reply({ data: await run(parsed.data) });
    } catch (error) {
      if (!(error instanceof AppError)) log.error("socket handler failed", { event, userId: socket.data.user.id, error });
      reply({ error: toErrorPayload(error) });
    }
  }) as never);
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
