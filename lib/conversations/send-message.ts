import type { Prisma } from "@/lib/db/open-database";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import type { PostMessageInput } from "./message-input";
import { postMessage, type PostMessageResult } from "./post-message";

/**
 * Posting as every entry point does it (server action, socket): write once, then announce.
 * A resend of an already-posted clientId announces nothing: every client has it already.
 */
export async function sendMessage(
  prisma: Prisma,
  publisher: RealtimePublisher,
  { userId, input }: { userId: string; input: PostMessageInput },
): Promise<PostMessageResult> {
  const result = await postMessage(prisma, { userId, input });
  if (result.created) publisher.messageCreated(result.message, result);
  return result;
}
