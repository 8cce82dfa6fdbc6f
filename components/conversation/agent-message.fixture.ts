import { unchangedMessage, type MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";

export const scout = { kind: "agent" as const, id: "scout", handle: "scout", displayName: "Scout", color: "#0ea5e9" };

/** A message of Scout's as the thread receives it, with the fields a test gives. */
export function agentMessage(overrides: Omit<Partial<MessageDto>, "metadata"> & { metadata?: Partial<MessageMetadata> }): MessageDto {
  return {
    id: "m1",
    conversationId: "c1",
    seq: 1,
    clientId: null,
    role: "assistant",
    content: "",
    author: scout,
    createdAt: "2026-01-01T10:00:00.000Z",
    ...unchangedMessage,
    reactions: [],
    attachments: [],
    ...overrides,
    metadata: { isHandoffSummary: false, isToolResult: false, timestamp: "2026-01-01T10:00:00.000Z", ...overrides.metadata },
  };
}
