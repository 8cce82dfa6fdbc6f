import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { findPrimaryProject } from "@/lib/projects/primary-project";
import type { RealtimePublisher } from "@/lib/realtime/publisher";
import { channelNameSchema, roomSchema } from "./conversation-scope";
import { createChannel } from "./create-channel";
import { newAgentChat } from "./new-agent-chat";
import { openAgentChat } from "./open-agent-chat";
import { openDirectMessage } from "./open-direct-message";
import { openRoom } from "./open-room";

const id = (what: string) => z.string({ error: `Choose ${what}.` }).trim().min(1, `Choose ${what}.`).max(100, `That ${what} id is not valid.`);
/** Omitted: the user's project (the one Chorus shows them). */
const projectId = id("a project").optional();

export const startConversationSchema = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("dm"), projectId, otherUserId: id("a person") }),
    // "new": another chat with the agent, rather than the most recent one.
    z.object({ type: z.literal("agent_dm"), projectId, agentId: id("an agent"), new: z.boolean({ error: "new must be true or false." }).default(false) }),
    z.object({ type: z.literal("room"), projectId, room: roomSchema }),
    z.object({
      type: z.literal("channel"),
      projectId,
      name: channelNameSchema,
      agentIds: z.array(z.string()).max(20).default([]),
      private: z.boolean({ error: "private must be true or false." }).default(false),
    }),
  ],
  { error: 'Say what to open: type "dm", "agent_dm", "room" or "channel".' },
);

export type StartConversationInput = z.infer<typeof startConversationSchema>;

/**
 * Opens (or creates) a conversation as every entry point does it (sidebar forms, HTTP API):
 * a DM, a chat with an agent (or a new one), a room by name, or a new channel (public or
 * private); newly created ones appear in their participants' sidebars.
 */
export async function startConversation(
  { prisma, publisher }: { prisma: Prisma; publisher: RealtimePublisher },
  { userId, input }: { userId: string; input: StartConversationInput },
): Promise<{ conversationId: string; created: boolean }> {
  const project = input.projectId ?? (await findPrimaryProject(prisma, { userId }))?.id;
  if (!project) throw new AppError("forbidden", "You are not a member of any project yet.");
  switch (input.type) {
    case "dm": {
      const { id: conversationId, created } = await openDirectMessage(prisma, { userId, projectId: project, otherUserId: input.otherUserId });
      if (created) publisher.conversationCreated(conversationId, [userId, input.otherUserId]);
      return { conversationId, created };
    }
    case "agent_dm": {
      const { id: conversationId, created } = await (input.new ? newAgentChat : openAgentChat)(prisma, { userId, projectId: project, agentId: input.agentId });
      if (created) publisher.conversationCreated(conversationId, [userId]);
      return { conversationId, created };
    }
    case "room": {
      const { id: conversationId, created, joined } = await openRoom(prisma, { userId, projectId: project, room: input.room });
      if (joined) publisher.conversationCreated(conversationId, [userId]);
      return { conversationId, created };
    }
    case "channel": {
      const channel = await createChannel(prisma, { userId, projectId: project, name: input.name, agentIds: input.agentIds, isPrivate: input.private });
      publisher.conversationCreated(channel.id, channel.participantUserIds);
      return { conversationId: channel.id, created: true };
    }
  }
}
