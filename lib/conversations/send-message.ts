import type { Prisma } from "@/lib/db/open-database";
import type { BlobStore } from "@/lib/attachments/blob-store";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import type { PostMessageInput } from "./message-input";
import { postMessage, type BacklogLimits, type PostMessageResult } from "./post-message";
import { titleNewChat } from "./title-new-chat";

/** What posting needs besides the database and the publisher: the workers to wake, the backlog limits. */
export interface PostingDeps {
  wakeDispatcher?: (dispatchIds: string[]) => void;
  wakePanels?: () => void;
  backlog?: BacklogLimits;
  attachmentsPerMessage?: number;
  /** Where attached files live: a deleted message's are removed from it. */
  attachmentStore?: BlobStore;
}

/**
 * Posting as every entry point does it (server action, socket): write once, announce, and wake
 * the dispatch worker when agents were asked to answer (the panel worker for a panel).
 * A resend of an already-posted clientId announces nothing: every client has it already. A
 * conversation's first message names it when it is an agent chat.
 */
export async function sendMessage(
  { prisma, publisher, wakeDispatcher, wakePanels, backlog, attachmentsPerMessage }: { prisma: Prisma; publisher: RealtimePublisher } & PostingDeps,
  { userId, input }: { userId: string; input: PostMessageInput },
): Promise<PostMessageResult> {
  const result = await postMessage(prisma, { userId, input, backlog, attachmentsPerMessage });
  if (!result.created) return result;
  publisher.messageCreated(result.message, result);
  if (result.dispatchIds.length > 0) wakeDispatcher?.(result.dispatchIds);
  if (result.panelId) wakePanels?.();
  if (result.message.seq === 1) await titleNewChat({ prisma, publisher }, result.message);
  return result;
}
