import { randomUUID } from "node:crypto";
import { io as connectSocket } from "socket.io-client";
import { ConversationSync } from "@/hooks/conversation-sync";
import { newerCopy } from "@/hooks/message-cache";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { Ack } from "@/lib/realtime/events";
import type { ClientSocket } from "../support/test-app";

/** What one client sent and was acknowledged, in the order it sent them. */
export interface Sent {
  clientId: string;
  id: string;
  seq: number;
}

/**
 * One person in the soak: a real Socket.IO client that reconnects like a browser, keeps the
 * channel complete with the browser's own ConversationSync, and posts now and then, retrying an
 * unanswered post with the same clientId (as the composer's Retry does) until it is acknowledged.
 */
export class SoakClient {
  readonly held = new Map<string, MessageDto>();
  /** The same seq arriving under two ids would be a duplicate a person sees. */
  readonly seqs = new Map<number, string>();
  readonly sent: Sent[] = [];
  duplicates = 0;
  private readonly socket: ClientSocket;
  private readonly sync: ConversationSync;
  private sending = false;

  constructor(
    readonly name: string,
    url: string,
    cookie: string,
    private readonly channelId: string,
  ) {
    this.socket = connectSocket(url, {
      transports: ["websocket"],
      reconnectionDelay: 200,
      reconnectionDelayMax: 2_000,
      timeout: 5_000,
      forceNew: true,
      extraHeaders: { cookie, origin: url },
    });
    this.sync = new ConversationSync(this.socket, channelId, {
      add: (messages) => messages.forEach((message) => this.hold(message)),
      update: (messages) => messages.forEach((message) => this.held.has(message.id) && this.held.set(message.id, newerCopy(this.held.get(message.id)!, message))),
      seqs: () => [...this.held.values()].map((message) => message.seq),
      changeWatermark: () => 0,
    });
    this.sync.start();
  }

  get connected(): boolean {
    return this.socket.connected;
  }

  /** Posts one message unless one is still waiting for its answer. */
  async post(content: string): Promise<void> {
    if (this.sending || !this.socket.connected) return;
    this.sending = true;
    const clientId = randomUUID();
    try {
      for (;;) {
        const ack = await this.socket
          .timeout(5_000)
          .emitWithAck("message:send", { conversationId: this.channelId, clientId, content })
          .catch(() => null as Ack<MessageDto> | null);
        if (ack && "data" in ack) {
          this.sent.push({ clientId, id: ack.data.id, seq: ack.data.seq });
          this.sync.received([ack.data]);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    } finally {
      this.sending = false;
    }
  }

  /** Edits this client's latest message (`message:edit`, as PATCH /api/messages/{id} does). */
  async editLatest(): Promise<void> {
    const latest = this.sent.at(-1);
    const held = latest && this.held.get(latest.id);
    if (held && !held.content.endsWith("(edited)")) await this.change("message:edit", { messageId: held.id, content: `${held.content} (edited)` });
  }

  /** Adds or takes back a 👍 on a message it holds (`message:react`). */
  async toggleReaction(): Promise<void> {
    const messages = [...this.held.values()].filter((message) => !message.deleted);
    const target = messages[Math.floor(Math.random() * messages.length)];
    if (!target) return;
    const mine = target.reactions.some((reaction) => reaction.emoji === "👍" && reaction.users.some((user) => user.name === this.name));
    await this.change("message:react", { messageId: target.id, emoji: "👍", reacted: !mine });
  }

  /** A change lost with the connection is simply not made: what counts is that every client ends with what the database holds. */
  private async change(event: "message:edit" | "message:react", payload: unknown): Promise<void> {
    if (!this.socket.connected) return;
    await this.socket.timeout(5_000).emitWithAck(event, payload).catch(() => undefined);
  }

  /** The network drops under the client: it reconnects and recovers by itself. */
  dropTransport(): void {
    this.socket.io.engine?.close();
  }

  /** The tab is closed and opened again a moment later: a new connection, nothing to recover. */
  reopen(afterMs: number): void {
    this.socket.disconnect();
    setTimeout(() => this.socket.connect(), afterMs);
  }

  close(): void {
    this.sync.stop();
    this.socket.disconnect();
  }

  private hold(message: MessageDto): void {
    if (message.conversationId !== this.channelId || this.held.has(message.id)) return;
    const other = this.seqs.get(message.seq);
    if (other && other !== message.id) this.duplicates += 1;
    this.seqs.set(message.seq, message.id);
    this.held.set(message.id, message);
  }
}
