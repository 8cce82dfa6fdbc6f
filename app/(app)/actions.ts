"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signOut } from "@/lib/auth/sign-in-out";
import { addAgentToConversation } from "@/lib/conversations/add-agent-to-conversation";
import { conversationIdSchema, postMessageInputSchema } from "@/lib/conversations/message-input";
import { startConversation, startConversationSchema, type StartConversationInput } from "@/lib/conversations/start-conversation";
import { sendMessage } from "@/lib/conversations/send-message";
import { publicAction, userAction } from "@/lib/actions/safe-action";
import { messaging } from "@/lib/runtime/runtime";
import { assertParticipant } from "@/lib/conversations/assert-participant";
import { AppError } from "@/lib/errors/app-error";
import { requestSessionEnd } from "@/lib/memory/end-session";
import { readSessionEnd } from "@/lib/memory/session-end-view";
import { deleteMyEpisode, listMyEpisodes } from "@/lib/memory/my-episodes";

const id = (what: string) => z.string().min(1, `Choose ${what}.`);
export const postMessageAction = userAction("post-message", postMessageInputSchema, async (input, { runtime, user }) => {
  const result = await sendMessage(messaging(runtime), { userId: user.id, input });
  return { message: result.message, unknownMentions: result.unknownMentions };
});

// The sidebar's forms each open one kind of conversation; the HTTP API opens any (POST /api/conversations).
const start = (type: StartConversationInput["type"]) =>
  userAction(
    `open-${type}`,
    z.preprocess((input) => ({ ...(typeof input === "object" ? input : {}), type }), startConversationSchema),
    (input, { runtime, user }) => startConversation({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { userId: user.id, input }),
  );

export const createChannelAction = start("channel");
export const openDirectMessageAction = start("dm");
export const openAgentChatAction = start("agent_dm");
export const openRoomAction = start("room");

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

/** Ends the session now; the episodes are written in the background (readSessionEndAction, memory:session-end). */
export const endSessionAction = userAction("end-session", z.object({ conversationId: conversationIdSchema }), async ({ conversationId }, { runtime, user }) => {
  await assertParticipant(runtime.db.prisma, { userId: user.id, conversationId });
  if (!runtime.sessionEnds) throw new AppError("internal", "Memory is not running on this server.");
  const sessionEndId = await requestSessionEnd(runtime.db.prisma, { conversationId, requestedBy: user.id });
  if (sessionEndId) runtime.sessionEnds.wake([sessionEndId]);
  return { sessionEndId };
});

export const readSessionEndAction = userAction("read-session-end", z.object({ sessionEndId: id("a session end") }), async ({ sessionEndId }, { runtime, user }) => {
  const view = await readSessionEnd(runtime.db.prisma, { id: sessionEndId, userId: user.id });
  if (!view) throw new AppError("not_found", "That session end does not exist, or someone else ended it.");
  return view;
});

export const listMyEpisodesAction = userAction("list-my-episodes", z.object({ agentId: id("an agent") }), ({ agentId }, { runtime, user }) =>
  listMyEpisodes(runtime.db.prisma, { userId: user.id, agentId }),
);

export const deleteMyEpisodeAction = userAction("delete-my-episode", z.object({ episodeId: id("a memory") }), ({ episodeId }, { runtime, user }) =>
  deleteMyEpisode(runtime.db.prisma, { userId: user.id, episodeId }),
);
