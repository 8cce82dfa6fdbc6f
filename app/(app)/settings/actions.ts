"use server";

import { z } from "zod";
import { changePassword, changePasswordSchema } from "@/lib/account/change-password";
import { deleteAccount, deleteAccountSchema } from "@/lib/account/delete-account";
import { profileSchema, updateProfile } from "@/lib/account/update-profile";
import { userAction } from "@/lib/actions/safe-action";
import { avatarColorSchema } from "@/lib/avatars/avatar-rules";
import { setAvatarColor } from "@/lib/avatars/set-avatar-color";
import { apiTokenNameSchema, createApiToken } from "@/lib/api-tokens/create-api-token";
import { revokeApiToken } from "@/lib/api-tokens/revoke-api-token";

export const createApiTokenAction = userAction("create-api-token", z.object({ name: apiTokenNameSchema }), (input, { runtime, user }) =>
  createApiToken(runtime.db.prisma, { userId: user.id, name: input.name }),
);

export const revokeApiTokenAction = userAction("revoke-api-token", z.object({ tokenId: z.string().min(1, "Choose a token.") }), (input, { runtime, user }) =>
  revokeApiToken(runtime.db.prisma, { userId: user.id, tokenId: input.tokenId }),
);

export const updateProfileAction = userAction("update-profile", profileSchema, (input, { runtime, user }) => updateProfile(runtime.db.prisma, { userId: user.id, input }));

export const updateAvatarColorAction = userAction("update-avatar-color", avatarColorSchema, (input, { runtime, user }) => setAvatarColor(runtime.db.prisma, { userId: user.id, input }));

export const changePasswordAction = userAction("change-password", changePasswordSchema, (input, { runtime, headers }) => changePassword(runtime.auth, { input, headers }));

export const deleteAccountAction = userAction("delete-account", deleteAccountSchema, (input, { runtime, user, headers }) =>
  deleteAccount({ auth: runtime.auth, prisma: runtime.db.prisma, store: runtime.attachments.store, endSession: (sessionId) => runtime.realtime.sessionEnded(sessionId, "signed_out") }, { userId: user.id, password: input.password, headers }),
);
