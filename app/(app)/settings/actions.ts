"use server";

import { z } from "zod";
import { userAction } from "@/lib/actions/safe-action";
import { apiTokenNameSchema, createApiToken } from "@/lib/api-tokens/create-api-token";
import { revokeApiToken } from "@/lib/api-tokens/revoke-api-token";

export const createApiTokenAction = userAction("create-api-token", z.object({ name: apiTokenNameSchema }), (input, { runtime, user }) =>
  createApiToken(runtime.db.prisma, { userId: user.id, name: input.name }),
);

export const revokeApiTokenAction = userAction("revoke-api-token", z.object({ tokenId: z.string().min(1, "Choose a token.") }), (input, { runtime, user }) =>
  revokeApiToken(runtime.db.prisma, { userId: user.id, tokenId: input.tokenId }),
);
