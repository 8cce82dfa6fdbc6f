"use server";

import { z } from "zod";
import { userAction } from "@/lib/actions/safe-action";
import { addMember, newMemberSchema } from "@/lib/conversations/add-member";
import { managerOf } from "@/lib/conversations/conversation-permissions";
import { conversationChangesSchema } from "@/lib/conversations/conversation-settings";
import { conversationIdSchema } from "@/lib/conversations/message-input";
import { notificationsSchema } from "@/lib/conversations/notification-level";
import { removeMember } from "@/lib/conversations/remove-member";
import { setNotifications } from "@/lib/conversations/set-notifications";
import { updateConversation } from "@/lib/conversations/update-conversation";

// The conversation header's settings; the HTTP API does the same (PATCH, POST and DELETE members).
export const updateConversationAction = userAction(
  "update-conversation",
  z.object({ conversationId: conversationIdSchema, changes: conversationChangesSchema }),
  ({ conversationId, changes }, { runtime, user }) =>
    updateConversation({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId, changes }),
);

export const addMemberAction = userAction("add-member", z.object({ conversationId: conversationIdSchema, member: newMemberSchema }), ({ conversationId, member }, { runtime, user }) =>
  addMember({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId, member }),
);

/** Removes someone else, or (their own id) leaves. */
export const removeMemberAction = userAction(
  "remove-member",
  z.object({ conversationId: conversationIdSchema, memberId: z.string().min(1, "Choose who to remove.").max(100) }),
  ({ conversationId, memberId }, { runtime, user }) =>
    removeMember({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { actor: managerOf(user), conversationId, memberId }),
);

export const setNotificationsAction = userAction("set-notifications", notificationsSchema.extend({ conversationId: conversationIdSchema }), ({ conversationId, ...input }, { runtime, user }) =>
  setNotifications({ prisma: runtime.db.prisma, publisher: runtime.realtime }, { userId: user.id, conversationId, input }),
);
