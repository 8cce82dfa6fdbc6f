"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { signOut } from "@/lib/auth/sign-in-out";
import { postMessageInputSchema } from "@/lib/conversations/message-input";
import { postMessage } from "@/lib/conversations/post-message";
import { publicAction, userAction } from "@/lib/actions/safe-action";

export const postMessageAction = userAction("post-message", postMessageInputSchema, async (input, { runtime, user }) => {
  const { message, created } = await postMessage(runtime.db.prisma, { userId: user.id, input });
  if (created) runtime.realtime.messageCreated(message);
  return message;
});

export const signOutAction = publicAction("sign-out", z.unknown(), async (_input, { runtime, headers }) => {
  await signOut(runtime.auth, { headers });
  redirect("/sign-in");
});
