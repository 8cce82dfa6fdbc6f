import type { PanelDelta, PanelView } from "@/lib/panels/panel-view";
import type { SessionUser } from "@/lib/auth/session-user";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { ErrorPayload } from "@/lib/errors/app-error";
import type { DocumentSummary } from "@/lib/knowledge/document-summary";
import type { SessionEndView } from "@/lib/memory/session-end-view";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import type { EditedMessage } from "@/lib/messages/edit-message";
import type { ReactionUpdate } from "@/lib/messages/react-to-message";
import type { AskedAgain } from "@/lib/messages/regenerate-reply";

/** Every acknowledgement is one of these, like server action results. */
export type Ack<T> = { data: T } | { error: ErrorPayload };
export type AckFn<T> = (result: Ack<T>) => void;

export interface SyncResult {
  messages: MessageDto[];
  /** False when more messages are missing than one answer carries: ask again from the last seq. */
  complete: boolean;
  /**
   * Asked with `afterChangeSeq`: the messages edited, deleted, reacted to or switched since then
   * (as they are now), and the change number to ask from next time.
   */
  changes?: { messages: MessageDto[]; lastChangeSeq: number; complete: boolean };
}

/** Sent to each participant's sockets outside the room, so sidebars update for conversations not open. */
export interface ConversationActivity {
  conversationId: string;
  seq: number;
  authorUserId: string | null;
  /** Who wrote it and how it starts: what a desktop notification says. */
  authorName: string;
  preview: string;
  mentionedUserIds: string[];
  /** An agent's answer: the person whose question it answers (it tells them as a mention would). */
  answersUserId?: string;
}

/** A conversation renamed, given a topic, archived or unarchived: headers and sidebars follow. */
export interface ConversationUpdate {
  conversationId: string;
  /** As the sidebar shows it: a channel's name, an agent chat's own title (else its agent's name). */
  title: string;
  topic: string | null;
  archived: boolean;
}

/** This person no longer takes part (they left, or were removed): their tabs drop the conversation. */
export interface ConversationRemoved {
  conversationId: string;
  /** Who removed them; null when they left. */
  removedBy: string | null;
}

/** How long a typing indicator lives without a refresh; senders refresh every TYPING_REFRESH_MS. */
export const TYPING_TTL_MS = 6_000;
export const TYPING_REFRESH_MS = 3_000;

export interface TypingActor {
  kind: "user" | "agent";
  id: string;
  name: string;
  /**
   * What an agent is doing now, set by the server while one of its tools runs ("using
   * search_notes"): the typing line then reads "Scout is using search_notes…".
   */
  activity?: string;
}

export interface TypingEvent {
  conversationId: string;
  actor: TypingActor;
  typing: boolean;
}

/** Sent with a new message to the sockets in its room; absent on catch-up. */
export interface MessageMeta {
  mentionedUserIds: string[];
  /** An agent's answer: the person whose question it answers. */
  answersUserId?: string | null;
}

/** A piece of an agent's reply while it streams; `index` orders the pieces of one dispatch. */
export interface MessageDelta {
  dispatchId: string;
  conversationId: string;
  /** The message being answered. */
  replyToMessageId: string;
  agent: { id: string; handle: string; displayName: string; color: string };
  /** The turn's attempt: a retried turn (another node took it over) starts over; an earlier attempt's pieces are stale. */
  attempt: number;
  index: number;
  text: string;
}

/** Why the server ended this connection: the client shows "Signed out" and stops reconnecting. */
export interface SessionEnded {
  reason: "signed_out" | "expired";
}

export interface ServerToClientEvents {
  "message:delta": (delta: MessageDelta) => void;
  "message:created": (message: MessageDto, meta?: MessageMeta) => void;
  /** A message was edited, regenerated or switched to another version: it as it is now. */
  "message:updated": (message: MessageDto) => void;
  /** A message was deleted: its tombstone. */
  "message:deleted": (message: MessageDto) => void;
  "conversation:activity": (activity: ConversationActivity) => void;
  "conversation:created": (payload: { conversationId: string }) => void;
  "conversation:updated": (update: ConversationUpdate) => void;
  "conversation:removed": (removal: ConversationRemoved) => void;
  /** Agents were added, changed or disabled in the user's project. */
  "directory:changed": () => void;
  /** A knowledge document's ingestion moved on (admins of its project). */
  "knowledge:progress": (document: DocumentSummary) => void;
  /** A session this user ended was written (what was kept about them), failed, or is being retried. */
  "memory:session-end": (view: SessionEndView) => void;
  /** The user's own read position moved (this tab or another); counts are fresh. */
  "read:updated": (summary: ConversationSummary) => void;
  typing: (event: TypingEvent) => void;
  /** This session ended (signed out here or elsewhere, or expired); the server disconnects next. */
  "session:ended": (payload: SessionEnded) => void;
  /** Broadcasts may have been lost (the node's Redis link came back): catch up from the database. */
  "sync:hint": () => void;
  /** A panel's state changed (an agent started, answered, voted or failed; the panel ended). */
  "panel:updated": (panel: PanelView) => void;
  /** A panel agent's answer as it streams. */
  "panel:delta": (delta: PanelDelta) => void;
  /** An agent turn that has not started: queued behind others, or waiting for its provider's limit. */
  "turn:queued": (turn: QueuedTurn) => void;
}

/** Payloads arrive as `unknown`: each handler parses them with a zod schema first. */
export interface ClientToServerEvents {
  "conversation:join": (payload: unknown, ack: AckFn<{ conversationId: string }>) => void;
  "conversation:leave": (payload: unknown, ack: AckFn<{ conversationId: string }>) => void;
  "conversation:read": (payload: unknown, ack: AckFn<ConversationSummary>) => void;
  "sync:since": (payload: unknown, ack: AckFn<SyncResult>) => void;
  /** Posting over the socket: the same path as the server action, for API clients and tests. */
  "message:send": (payload: unknown, ack: AckFn<MessageDto>) => void;
  "typing:start": (payload: unknown, ack?: AckFn<null>) => void;
  "typing:stop": (payload: unknown, ack?: AckFn<null>) => void;
  /** Edit your message ({messageId, content, resend?}), as PATCH /api/messages/{id} does. */
  "message:edit": (payload: unknown, ack: AckFn<EditedMessage>) => void;
  "message:show-version": (payload: unknown, ack: AckFn<MessageDto[]>) => void;
  "message:delete": (payload: unknown, ack: AckFn<MessageDto>) => void;
  "message:regenerate": (payload: unknown, ack: AckFn<AskedAgain>) => void;
  /** {messageId, emoji, reacted}: add (true) or take back (false) your reaction. */
  "message:react": (payload: unknown, ack: AckFn<ReactionUpdate>) => void;
  /** Stop an agent's reply in progress (the text so far is kept, marked stopped), or one still queued. */
  "agent:stop": (payload: unknown, ack: AckFn<null>) => void;
  /** The conversation's turns not started yet, with their places in line. */
  "turns:queued": (payload: unknown, ack: AckFn<QueuedTurn[]>) => void;
}

/** Between nodes (through the Redis adapter): the node running a turn aborts it. */
export interface InterServerEvents {
  "agent:stop": (dispatchId: string) => void;
}

/**
 * Plain data only: with connection-state recovery over Redis it is serialised with msgpack and
 * restored on another node (a Set would come back as `{}`).
 */
export interface SocketData {
  user: SessionUser;
  sessionId: string;
  /** Epoch milliseconds; the connection is re-checked then and ended if the session is gone. */
  sessionExpiresAt: number;
  /** Conversations this socket said it is typing in, to clear them when it disconnects. */
  typingIn: string[];
}

export const conversationRoom = (conversationId: string) => `conversation:${conversationId}`;
export const userRoom = (userId: string) => `user:${userId}`;
export const sessionRoom = (sessionId: string) => `session:${sessionId}`;
