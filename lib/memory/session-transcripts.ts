/** A message of an ended session, as the episode writer reads it. */
export interface SessionMessage {
  id: string;
  seq: number;
  content: string;
  createdAt: Date;
  authorUserId: string | null;
  authorAgentId: string | null;
  authorHandle: string | null;
  /** An agent's reply names the person's message it answers. */
  replyToMessageId: string | null;
  mentionedUserIds: string[];
  mentionedAgentIds: string[];
}

/** What one episode is written from. `userId` null: the channel's own summary. */
export interface EpisodeSource {
  agentId: string;
  userId: string | null;
  messages: SessionMessage[];
}

/**
 * Who an agent keeps what about (issue 17, "per person"): for each person who dealt with the
 * agent in the session (in a chat with the agent: its person; in a channel: someone it answered
 * or who mentioned it), an episode from what that person said and what was said to them (replies
 * to their messages, messages mentioning them), never what others said among themselves. A
 * channel also gets one summary of the whole session per agent that spoke, with no person: it is
 * knowledge of that channel, recalled only there.
 */
export function episodeSources(conversationType: string, messages: SessionMessage[]): EpisodeSource[] {
  const agentIds = unique(messages.flatMap((message) => (message.authorAgentId ? [message.authorAgentId] : [])));
  const people = unique(messages.flatMap((message) => (message.authorUserId ? [message.authorUserId] : [])));
  const authorOf = new Map(messages.map((message) => [message.id, message.authorUserId]));
  const sources: EpisodeSource[] = [];
  for (const agentId of agentIds) {
    for (const userId of people) {
      const own = (message: SessionMessage) => message.authorUserId === userId;
      const toThem = (message: SessionMessage) => (message.replyToMessageId !== null && authorOf.get(message.replyToMessageId) === userId) || message.mentionedUserIds.includes(userId);
      const dealt =
        conversationType === "agent_dm" ||
        messages.some((message) => message.authorAgentId === agentId && toThem(message)) ||
        messages.some((message) => own(message) && message.mentionedAgentIds.includes(agentId));
      if (dealt) sources.push({ agentId, userId, messages: messages.filter((message) => own(message) || toThem(message)) });
    }
    if (conversationType === "group") sources.push({ agentId, userId: null, messages });
  }
  return sources;
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
