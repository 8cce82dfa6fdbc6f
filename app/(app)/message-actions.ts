"use server";

import { z } from "zod";
import { userAction } from "@/lib/actions/safe-action";
import { deleteMessage } from "@/lib/messages/delete-message";
import { editMessage, editMessageSchema } from "@/lib/messages/edit-message";
import { listVersions } from "@/lib/messages/list-versions";
import { messageIdSchema } from "@/lib/messages/message-change-input";
import { reactToMessage } from "@/lib/messages/react-to-message";
import { regenerateReply } from "@/lib/messages/regenerate-reply";
import { showVersion, showVersionSchema } from "@/lib/messages/show-version";
import { reactionEmojiSchema } from "@/lib/reactions/reaction-input";
import { messaging } from "@/lib/runtime/runtime";

// The composer and the message menu; bots use the same use cases over /api/messages.
const byId = z.object({ messageId: messageIdSchema });

export const editMessageAction = userAction("edit-message", editMessageSchema, (input, { runtime, user }) => editMessage(messaging(runtime), { userId: user.id, input }));

export const deleteMessageAction = userAction("delete-message", byId, ({ messageId }, { runtime, user }) =>
  deleteMessage({ ...messaging(runtime), stopTurn: (id) => runtime.turns.stop(id) }, { user, messageId }),
);

export const regenerateReplyAction = userAction("regenerate-reply", byId, ({ messageId }, { runtime, user }) => regenerateReply(messaging(runtime), { user, messageId }));

export const showVersionAction = userAction("show-version", showVersionSchema, (input, { runtime, user }) => showVersion(messaging(runtime), { user, input }));

export const listVersionsAction = userAction("list-versions", byId, ({ messageId }, { runtime, user }) => listVersions(runtime.db.prisma, { userId: user.id, messageId }));

export const reactAction = userAction("react", byId.extend({ emoji: reactionEmojiSchema, reacted: z.boolean() }), (input, { runtime, user }) =>
  reactToMessage(messaging(runtime), { userId: user.id, ...input }),
);
