import type { Socket } from "socket.io";
import { z } from "zod";
import { assertParticipant } from "@/lib/conversations/assert-participant";
import { listMessagesSince } from "@/lib/conversations/list-messages";
import { markRead } from "@/lib/conversations/mark-read";
import { conversationIdSchema, postMessageInputSchema } from "@/lib/conversations/message-input";
import { sendMessage, type PostingDeps } from "@/lib/conversations/send-message";
import { stoppableDispatch, stopQueuedTurn } from "@/lib/agents/stop-queued-turn";
import { readQueuedTurns } from "@/lib/dispatch/turn-queue";
import { deleteMessage } from "@/lib/messages/delete-message";
import { editMessage, editMessageSchema } from "@/lib/messages/edit-message";
import { messageIdSchema } from "@/lib/messages/message-change-input";
import { reactToMessage } from "@/lib/messages/react-to-message";
import { regenerateReply } from "@/lib/messages/regenerate-reply";
import { showVersion, showVersionSchema } from "@/lib/messages/show-version";
import { reactionEmojiSchema } from "@/lib/reactions/reaction-input";
import type { Prisma } from "@/lib/db/open-database";
import { AppError, toErrorPayload } from "@/lib/errors/app-error";
import { toClientError } from "@/lib/errors/client-error";
import { EventBudget } from "./event-budget";
import { conversationRoom, type Ack, type ClientToServerEvents, type InterServerEvents, type ServerToClientEvents, type SocketData } from "./events";
import type { RealtimePublisher } from "./publisher";

export type ChorusSocket = Socket<ClientToServerEvents, ServerToClientEvents, InterServerEvents, SocketData>;

export interface SocketHandlerDeps extends PostingDeps {
  prisma: Prisma;
  publisher(): RealtimePublisher;
  /** Stops an agent turn here or, through the adapter, on the node running it. */
  stopTurn(dispatchId: string): void;
  /** Handlers still running, so shutdown can let them finish (and announce) before closing. */
  inFlight: Set<Promise<unknown>>;
}

const joinSchema = z.object({ conversationId: conversationIdSchema });
const syncSchema = z.object({ conversationId: conversationIdSchema, afterSeq: z.number().int().min(0), afterChangeSeq: z.number().int().min(0).optional() });
const readSchema = z.object({ conversationId: conversationIdSchema, seq: z.number().int().min(0) });
const stopSchema = z.object({ dispatchId: z.uuid({ error: "dispatchId must be a UUID." }) });
const messageSchema = z.object({ messageId: messageIdSchema });
const reactSchema = messageSchema.extend({ emoji: reactionEmojiSchema, reacted: z.boolean() });

/** Every client event of one socket: validated, rate-limited, authorised, acknowledged. */
export function registerSocketHandlers(socket: ChorusSocket, deps: SocketHandlerDeps): void {
  const { user } = socket.data;
  const userId = user.id;
  const actor = { kind: "user" as const, id: user.id, name: user.name };
  const handle = handlerFor(socket, deps.inFlight, new EventBudget());

  const setTyping = (conversationId: string, typing: boolean) => {
    const others = socket.data.typingIn.filter((id) => id !== conversationId);
    socket.data.typingIn = typing ? [...others, conversationId] : others;
    socket.to(conversationRoom(conversationId)).emit("typing", { conversationId, actor, typing });
  };

  handle("conversation:join", joinSchema, async ({ conversationId }) => {
    await assertParticipant(deps.prisma, { userId, conversationId });
    await socket.join(conversationRoom(conversationId));
    return { conversationId };
  });

  handle("conversation:leave", joinSchema, async ({ conversationId }) => {
    await socket.leave(conversationRoom(conversationId));
    return { conversationId };
  });

  handle("sync:since", syncSchema, (payload) => listMessagesSince(deps.prisma, { userId, ...payload }));

  handle("message:send", postMessageInputSchema, async (input) => {
    const { message } = await sendMessage({ ...deps, publisher: deps.publisher() }, { userId, input });
    return message;
  });

  // Changing messages over the socket: the same use cases as the HTTP API and the server actions.
  const changing = () => ({ prisma: deps.prisma, publisher: deps.publisher(), wakeDispatcher: deps.wakeDispatcher });
  handle("message:edit", editMessageSchema, (input) => editMessage(changing(), { userId, input }));
  handle("message:show-version", showVersionSchema, (input) => showVersion(changing(), { user, input }));
  handle("message:delete", messageSchema, ({ messageId }) => deleteMessage({ ...changing(), stopTurn: deps.stopTurn, attachmentStore: deps.attachmentStore }, { user, messageId }));
  handle("message:regenerate", messageSchema, ({ messageId }) => regenerateReply(changing(), { user, messageId }));
  handle("message:react", reactSchema, (input) => reactToMessage(changing(), { userId, ...input }));

  handle("agent:stop", stopSchema, async ({ dispatchId }) => {
    const dispatch = await deps.prisma.dispatch.findUnique({ where: { id: dispatchId }, select: { id: true, ...stoppableDispatch } });
    if (!dispatch) throw new AppError("not_found", "That reply is no longer in progress.");
    await assertParticipant(deps.prisma, { userId, conversationId: dispatch.conversationId });
    // After a handoff, the person who asked is the author of the message the handoff answers.
    if ((dispatch.askMessage ?? dispatch.message).authorUserId !== userId && user.role !== "admin") throw new AppError("forbidden", "Only the person who asked (or an admin) can stop this reply.");
    // A turn still waiting ends here; one running is aborted on whichever node runs it.
    const stopped = await stopQueuedTurn(deps.prisma, dispatch, { id: userId, name: user.name });
    if (!stopped) deps.stopTurn(dispatchId);
    else {
      deps.publisher().messageCreated(stopped.message, { participantUserIds: stopped.participantUserIds, mentionedUserIds: [] });
      for (const step of stopped.steps) deps.publisher().messageUpdated(step);
    }
    return null;
  });

  handle("turns:queued", joinSchema, async ({ conversationId }) => {
    await assertParticipant(deps.prisma, { userId, conversationId });
    return readQueuedTurns(deps.prisma, { conversationId });
  });

  handle("conversation:read", readSchema, async (payload) => {
    const summary = await markRead(deps.prisma, { userId, ...payload });
    deps.publisher().readUpdated(userId, summary);
    return summary;
  });

  // Typing is ephemeral: never stored, only relayed to the room this socket has joined (joining
  // already proved it is a participant).
  handle("typing:start", joinSchema, async ({ conversationId }) => {
    if (!socket.rooms.has(conversationRoom(conversationId))) throw new AppError("forbidden", "Join the conversation before typing in it.");
    setTyping(conversationId, true);
    return null;
  });

  handle("typing:stop", joinSchema, async ({ conversationId }) => {
    if (socket.data.typingIn.includes(conversationId)) setTyping(conversationId, false);
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
function handlerFor(socket: ChorusSocket, inFlight: Set<Promise<unknown>>, budget: EventBudget) {
  return <Event extends keyof ClientToServerEvents, Input, Output>(event: Event, schema: z.ZodType<Input>, run: (input: Input) => Promise<Output>): void => {
    socket.on(event, ((payload: unknown, ack: unknown) => {
      const reply = typeof ack === "function" ? (ack as (result: Ack<Output>) => void) : () => undefined;
      if (!budget.take()) {
        reply({ error: toErrorPayload(new AppError("rate_limited", "Too many requests on this connection. Slow down and try again in a moment.")) });
        return;
      }
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        reply({ error: toErrorPayload(new AppError("bad_request", `Invalid ${event} payload: ${parsed.error.issues[0]?.message ?? "malformed"}`)) });
        return;
      }
      const task = run(parsed.data).then(
        (data) => reply({ data }),
        (error: unknown) => reply({ error: toErrorPayload(toClientError(error, "socket handler failed", { event, userId: socket.data.user.id })) }),
      );
      inFlight.add(task);
      void task.finally(() => inFlight.delete(task));
    }) as never);
  };
}
