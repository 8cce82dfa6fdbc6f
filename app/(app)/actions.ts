"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signOut } from "@/lib/auth/sign-in-out";
import { channelNameSchema, roomSchema } from "@/lib/conversations/conversation-scope";
import { addAgentToConversation } from "@/lib/conversations/add-agent-to-conversation";
import { createChannel } from "@/lib/conversations/create-channel";
import { conversationIdSchema, postMessageInputSchema } from "@/lib/conversations/message-input";
import { openAgentChat } from "@/lib/conversations/open-agent-chat";
import { openDirectMessage } from "@/lib/conversations/open-direct-message";
import { openRoom } from "@/lib/conversations/open-room";
import { sendMessage } from "@/lib/conversations/send-message";
import { publicAction, userAction } from "@/lib/actions/safe-action";

const id = (what: string) => z.string().min(1, `Choose ${what}.`);

export const postMessageAction = userAction("post-message", postMessageInputSchema, async (input, { runtime, user }) => {
  const result = await sendMessage(
    { prisma: runtime.db.prisma, publisher: runtime.realtime, wakeDispatcher: (dispatchIds: string[]) => runtime.dispatcher?.wake(dispatchIds) },
    { userId: user.id, input },
  );
  return { message: result.message, unknownMentions: result.unknownMentions };
});

export const createChannelAction = userAction(
  "create-channel",
  z.object({ projectId: id("a project"), name: channelNameSchema, agentIds: z.array(z.string()).max(20).default([]) }),
  async (input, { runtime, user }) => {
    const channel = await createChannel(runtime.db.prisma, { userId: user.id, ...input });
    runtime.realtime.conversationCreated(channel.id, channel.participantUserIds);
    return { conversationId: channel.id };
  },
);

export const openDirectMessageAction = userAction(
  "open-direct-message",
  z.object({ projectId: id("a project"), otherUserId: id("a person") }),
  async (input, { runtime, user }) => {
    const { id: conversationId, created } = await openDirectMessage(runtime.db.prisma, { userId: user.id, ...input });
    if (created) runtime.realtime.conversationCreated(conversationId, [user.id, input.otherUserId]);
    return { conversationId };
  },
);

export const openAgentChatAction = userAction(
  "open-agent-chat",
  z.object({ projectId: id("a project"), agentId: id("an agent") }),
  async (input, { runtime, user }) => {
    const { id: conversationId, created } = await openAgentChat(runtime.db.prisma, { userId: user.id, ...input });
    if (created) runtime.realtime.conversationCreated(conversationId, [user.id]);
    return { conversationId };
  },
);

export const openRoomAction = userAction(
  "open-room",
  z.object({ projectId: id("a project"), room: roomSchema }),
  async (input, { runtime, user }) => {
    const { id: conversationId } = await openRoom(runtime.db.prisma, { userId: user.id, ...input });
    runtime.realtime.conversationCreated(conversationId, [user.id]);
    return { conversationId };
  },
);

export const addAgentToConversationAction = userAction(
  "add-agent-to-conversation",
  z.object({ conversationId: conversationIdSchema, agentId: id("an agent") }),
  async (input, { runtime, user }) => {
    const { message, participantUserIds } = await addAgentToConversation(runtime.db.prisma, { userId: user.id, ...input });
    runtime.realtime.messageCreated(message, { participantUserIds, mentionedUserIds: [] });
    return { seq: message.seq };
  },
);

export const signOutAction = publicAction("sign-out", z.unknown(), async (_input, { runtime, headers }) => {
  await signOut(runtime.auth, { headers });
  redirect("/sign-in");
});
