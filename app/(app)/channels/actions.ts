"use server";

import { z } from "zod";
import { userAction } from "@/lib/actions/safe-action";
import { joinChannel } from "@/lib/conversations/join-channel";
import { conversationIdSchema } from "@/lib/conversations/message-input";

export const joinChannelAction = userAction("join-channel", z.object({ conversationId: conversationIdSchema }), ({ conversationId }, { runtime, user }) =>
  joinChannel({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { userId: user.id, conversationId }),
);
