import type { Transaction } from "@/lib/db/open-database";
import type { LockedMessage } from "./changed-message";

export type VersionKind = "original" | "edit" | "resend" | "generation";

export interface NewVersion {
  kind: VersionKind;
  content: string;
  metadata: Record<string, unknown>;
  tokenCount: number | null;
  tokenEncoding: string | null;
  createdByUserId: string | null;
  /** A generation: the version of the asked message it answers. */
  askVersion?: number | null;
}

/**
 * Adds a version to a locked message and shows it. Versions are stored from the second one on:
 * the first is copied from the message row then, so a message never edited costs nothing.
 */
export async function addVersion(tx: Transaction, message: LockedMessage, version: NewVersion, changeSeq: number, edited: boolean): Promise<number> {
  if (message.versionCount === 1) {
    await tx.messageVersion.createMany({
      data: [
        {
          messageId: message.id,
          version: 1,
          kind: message.role === "assistant" ? "generation" : "original",
          content: message.content,
          metadata: message.metadata as object,
          tokenCount: message.tokenCount,
          tokenEncoding: message.tokenEncoding,
          createdByUserId: message.authorUserId,
        },
      ],
      skipDuplicates: true,
    });
  }
  const next = message.versionCount + 1;
  await tx.messageVersion.create({
    data: {
      messageId: message.id,
      version: next,
      kind: version.kind,
      content: version.content,
      metadata: version.metadata as object,
      tokenCount: version.tokenCount,
      tokenEncoding: version.tokenEncoding,
      askVersion: version.askVersion ?? null,
      createdByUserId: version.createdByUserId,
    },
  });
  await tx.message.update({
    where: { id: message.id },
    data: {
      content: version.content,
      metadata: version.metadata as object,
      tokenCount: version.tokenCount,
      tokenEncoding: version.tokenEncoding,
      version: next,
      versionCount: next,
      changeSeq,
      ...(edited ? { editedAt: new Date() } : {}),
    },
  });
  return next;
}
