import type { Prisma } from "@/lib/db/open-database";
import type { BlobStore } from "@/lib/attachments/blob-store";
import type { TurnSlot } from "@/lib/dispatch/dispatch-worker";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import type { PostMessageInput } from "./message-input";
import { postMessage, type BacklogLimits, type PostMessageResult } from "./post-message";
import { titleNewChat } from "./title-new-chat";

/** What posting needs besides the database and the publisher: the workers to wake, the backlog limits. */
export interface PostingDeps {
  wakeDispatcher?: (dispatchIds: string[]) => void;
  /** A place on this node for the turn a post starts, claimed by the post's own statement (null: none free). */
  reserveTurn?: () => TurnSlot | null;
  wakePanels?: () => void;
  backlog?: BacklogLimits;
  attachmentsPerMessage?: number;
  /** Where attached files live: a deleted message's are removed from it. */
  attachmentStore?: BlobStore;
}

/**
 * Posting as every entry point does it (server action, socket): write once, announce, and wake
 * the dispatch worker when agents were asked to answer (the panel worker for a panel). With a
 * place free on this node, the post's statement also claims the first turn it starts, which
 * runs at once: on the embedded database a statement of its own costs milliseconds before the
 * first token.
 * A resend of an already-posted clientId announces nothing: every client has it already. A
 * conversation's first message names it when it is an agent chat.
 */
export async function sendMessage(
  { prisma, publisher, wakeDispatcher, reserveTurn, wakePanels, backlog, attachmentsPerMessage }: { prisma: Prisma; publisher: RealtimePublisher } & PostingDeps,
  { userId, input }: { userId: string; input: PostMessageInput },
): Promise<PostMessageResult> {
  const slot = reserveTurn?.() ?? null;
  const sentAt = Date.now();
  const result = await postMessage(prisma, { userId, input, backlog, attachmentsPerMessage, claim: slot ?? undefined }).catch((error: unknown) => {
    slot?.release();
    throw error;
  });
  if (slot && result.claimed) slot.fill(result.claimed, sentAt + slot.leaseMs);
  else slot?.release();
  if (!result.created) return result;
  publisher.messageCreated(result.message, result);
  const unclaimed = result.dispatchIds.filter((id) => id !== result.claimed?.id);
  if (unclaimed.length > 0) wakeDispatcher?.(unclaimed);
  if (result.panelId) wakePanels?.();
  if (result.message.seq === 1) await titleNewChat({ prisma, publisher }, result.message);
  return result;
}
