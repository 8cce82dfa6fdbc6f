import { ATTACHMENT_URL_PREFIX } from "@/lib/context/attachment-forms";
import type { Prisma } from "@/lib/db/open-database";
import type { ChatMessage, ContentPart, LoopMessage } from "@/lib/llm/types";
import { log } from "@/lib/log/logger";
import type { BlobStore } from "./blob-store";

/** OpenAI scales a `detail: "low"` image to fit 512×512: a larger original sends its thumbnail instead. */
const LOW_DETAIL_SIDE = 512;

/**
 * Swaps each image part's `attachment:ID` (what the snapshot keeps) for the file as a data URL,
 * just before the call: the image itself when it is small, else its stored thumbnail, which
 * already holds every pixel a low-detail image keeps. A file deleted since the turn was
 * assembled is left out of the call.
 */
export function imageInliner({ prisma, store }: { prisma: Prisma; store: BlobStore }): (messages: LoopMessage[]) => Promise<LoopMessage[]> {
  return async (messages) => {
    const ids = messages.flatMap((message) => (withParts(message) ? message.content.flatMap((part) => (part.type === "image_url" ? [attachmentId(part)] : [])) : []));
    if (ids.length === 0) return messages;
    const rows = await prisma.attachment.findMany({ where: { id: { in: ids }, messageId: { not: null } }, select: { id: true, mediaType: true, storageKey: true, thumbnailKey: true, width: true, height: true } });
    const urls = new Map<string, string>();
    await Promise.all(
      rows.map(async (row) => {
        const small = row.width !== null && row.height !== null && Math.max(row.width, row.height) <= LOW_DETAIL_SIDE;
        const [key, mediaType] = small || !row.thumbnailKey ? [row.storageKey, row.mediaType] : [row.thumbnailKey, "image/webp"];
        const bytes = await store.get(key);
        if (bytes) urls.set(row.id, `data:${mediaType};base64,${Buffer.from(bytes).toString("base64")}`);
      }),
    );
    return messages.map((message) => {
      if (!withParts(message)) return message;
      const parts = message.content.flatMap((part): ContentPart[] => {
        if (part.type !== "image_url") return [part];
        const url = urls.get(attachmentId(part));
        if (url) return [{ type: "image_url", image_url: { url, detail: part.image_url.detail } }];
        log.warn("image attachment gone before the call", { attachmentId: attachmentId(part) });
        return [];
      });
      return { ...message, content: parts.length === 1 && parts[0]!.type === "text" ? parts[0]!.text : parts };
    });
  };
}

/** Only a person's message that shows images has content parts. */
function withParts(message: LoopMessage): message is ChatMessage & { content: ContentPart[] } {
  return Array.isArray(message.content);
}

function attachmentId(part: Extract<ContentPart, { type: "image_url" }>): string {
  return part.image_url.url.slice(ATTACHMENT_URL_PREFIX.length);
}
