export const queryKeys = {
  conversations: () => ["conversations"] as const,
  messages: (conversationId: string) => ["conversation", conversationId, "messages"] as const,
};
