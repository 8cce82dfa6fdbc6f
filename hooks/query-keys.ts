export const queryKeys = {
  messages: (conversationId: string) => ["conversation", conversationId, "messages"] as const,
};
