export const queryKeys = {
  conversations: () => ["conversations"] as const,
  directory: () => ["directory"] as const,
  messages: (conversationId: string) => ["conversation", conversationId, "messages"] as const,
  turnContext: (turnId: string) => ["turn", turnId, "context"] as const,
  fork: (forkId: string) => ["fork", forkId] as const,
  panel: (panelId: string) => ["panel", panelId] as const,
  forks: (conversationId: string) => ["conversation", conversationId, "forks"] as const,
  turnLoad: () => ["admin", "turn-load"] as const,
  attachmentText: (attachmentId: string) => ["attachment", attachmentId, "text"] as const,
  replySource: (messageId: string, chunkId: string) => ["message", messageId, "source", chunkId] as const,
  /** Both inbox queries, for invalidating them together. */
  inbox: () => ["inbox"] as const,
  inboxPages: () => ["inbox", "pages"] as const,
  inboxUnread: () => ["inbox", "unread"] as const,
};
