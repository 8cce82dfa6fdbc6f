import type { PanelDelta, PanelView } from "@/lib/panels/panel-view";
import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { DocumentSummary } from "@/lib/knowledge/document-summary";
import type { SessionEndView } from "@/lib/memory/session-end-view";
import type { QueuedTurn } from "@/lib/dispatch/queued-turn";
import type { ConversationRemoved, ConversationUpdate, MessageDelta, SessionEnded, TypingActor } from "./events";

export interface MessageAudience {
  participantUserIds: string[];
  mentionedUserIds: string[];
  /** An agent's answer: the person whose question it answers. */
  answersUserId?: string | null;
}

/** How domain code announces changes; server.ts supplies the Socket.IO implementation. */
export interface RealtimePublisher {
  messageCreated(message: MessageDto, audience: MessageAudience): void;
  /** To the message's conversation room: an edit, a new or switched version. */
  messageUpdated(message: MessageDto): void;
  /** To the message's conversation room: its tombstone. */
  messageDeleted(message: MessageDto): void;
  readUpdated(userId: string, summary: ConversationSummary): void;
  conversationCreated(conversationId: string, userIds: string[]): void;
  /** To these participants' sockets (every node): their headers and sidebars follow. */
  conversationUpdated(update: ConversationUpdate, userIds: string[]): void;
  /** This person's sockets leave the conversation's room (every node) and are told to drop it. */
  conversationRemoved(userId: string, removal: ConversationRemoved): void;
  /** The project's agents changed: these users' pickers and sidebars reload the directory. */
  directoryChanged(userIds: string[]): void;
  /** A knowledge document's ingestion moved on: these users (admins) see it live. */
  knowledgeProgress(userIds: string[], document: DocumentSummary): void;
  /** How a session this user ended went (to their tabs only: what was kept about them). */
  sessionEndUpdated(userId: string, view: SessionEndView): void;
  /** To the conversation's room, and to these users' sidebars (agents at work show there too). */
  typing(conversationId: string, actor: TypingActor, typing: boolean, sidebarUserIds?: string[]): void;
  messageDelta(delta: MessageDelta): void;
  /** To the panel's conversation room: every participant's card follows it. */
  panelUpdated(panel: PanelView): void;
  panelDelta(delta: PanelDelta): void;
  /** To the conversation's room: an agent turn waiting to start, and why. */
  turnQueued(turn: QueuedTurn): void;
  /** A session ended: its sockets on every node are told why and disconnected. */
  sessionEnded(sessionId: string, reason: SessionEnded["reason"]): void;
  /** Tells this node's sockets to catch up from the database (broadcasts may have been lost). */
  resync(): void;
  /** For /api/health: whether live updates are being served, and to how many sockets here. */
  status(): { state: "up" | "down"; connections: number };
}

/** Before Socket.IO is attached (scripts, tests without sockets) nothing is announced. */
export const noopPublisher: RealtimePublisher = {
  messageCreated: () => undefined,
  messageUpdated: () => undefined,
  messageDeleted: () => undefined,
  readUpdated: () => undefined,
  conversationCreated: () => undefined,
  conversationUpdated: () => undefined,
  conversationRemoved: () => undefined,
  directoryChanged: () => undefined,
  knowledgeProgress: () => undefined,
  sessionEndUpdated: () => undefined,
  typing: () => undefined,
  messageDelta: () => undefined,
  panelUpdated: () => undefined,
  panelDelta: () => undefined,
  turnQueued: () => undefined,
  sessionEnded: () => undefined,
  resync: () => undefined,
  status: () => ({ state: "down", connections: 0 }),
};
