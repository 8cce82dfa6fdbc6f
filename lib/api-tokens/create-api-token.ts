import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { refinePlainText } from "@/lib/validation/plain-text";
import { displayPrefix, hashToken, newTokenSecret } from "./token-secret";

export const MAX_ACTIVE_TOKENS = 20;

export const apiTokenNameSchema = z
  .string({ error: "Name the token after what will use it." })
  .trim()
  .min(1, "Name the token after what will use it (e.g. deploy bot).")
  .max(60, "Token names can be at most 60 characters.")
  .superRefine(refinePlainText("Token names"));

/** A new personal API token; the secret is returned this once and never again. */
export async function createApiToken(prisma: Prisma, { userId, name }: { userId: string; name: string }) {
  const active = await prisma.apiToken.count({ where: { userId, revokedAt: null } });
  if (active >= MAX_ACTIVE_TOKENS) throw new AppError("conflict", `You have ${MAX_ACTIVE_TOKENS} active tokens. Revoke one you no longer use first.`);
  const token = newTokenSecret();
  const row = await prisma.apiToken.create({
    data: { id: randomUUID(), userId, name, tokenHash: hashToken(token), prefix: displayPrefix(token) },
    select: { id: true, name: true, prefix: true, createdAt: true },
  });
  return { ...row, createdAt: row.createdAt.toISOString(), token };
}
