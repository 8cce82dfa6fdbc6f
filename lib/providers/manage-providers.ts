import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { SecretUnreadableError, type SecretBox } from "@/lib/mcp/secret-box";
import { refinePlainText } from "@/lib/validation/plain-text";
import { listModels } from "./list-models";
import { assertProviderAddress } from "./provider-address";
import { PROVIDER_KIND_IDS, type ProviderKind } from "./provider-kinds";

const AZURE_API_VERSION = /^\d{4}-\d{2}-\d{2}(-preview)?$/;

export const providerInputSchema = z
  .object({
    providerId: z.string().min(1).max(100).optional(),
    name: z.string({ error: "Name the provider." }).trim().min(1, "Name the provider.").max(60, "Names can be at most 60 characters.").superRefine(refinePlainText("Names")),
    kind: z.enum(PROVIDER_KIND_IDS, { error: "Choose what kind of provider this is." }),
    baseUrl: z.string({ error: "Enter the provider's base URL." }).trim().min(1, "Enter the provider's base URL, like https://api.openai.com/v1.").max(500, "Addresses can be at most 500 characters."),
    /** Empty: keep the stored key (or none). */
    apiKey: z.string().trim().max(2_000, "That key is too long to be an API key.").default(""),
    apiVersion: z.string().trim().max(40, "Use an api-version like 2024-10-21.").default(""),
  })
  .superRefine((input, context) => {
    if (input.kind === "azure" && !AZURE_API_VERSION.test(input.apiVersion)) {
      context.addIssue({ code: "custom", path: ["apiVersion"], message: "Azure OpenAI needs an api-version, like 2024-10-21." });
    }
  });
export type ProviderInput = z.infer<typeof providerInputSchema>;
export const providerIdSchema = z.object({ providerId: z.string({ error: "Choose a provider." }).min(1, "Choose a provider.").max(100, "Choose a provider.") });

/** A provider as admins see it: never its key, only whether it has one. */
export interface ProviderView {
  id: string;
  name: string;
  kind: ProviderKind;
  baseUrl: string;
  apiVersion: string | null;
  hasKey: boolean;
  models: string[];
  checkedAt: string | null;
  /** The agents answering through it. */
  agents: string[];
}

export interface ProviderDeps {
  prisma: Prisma;
  secrets: SecretBox;
}

const KEY_FIELD = "apiKey";
const sealContext = (providerId: string) => `provider:${providerId}:${KEY_FIELD}`;

export async function listProviders(prisma: Prisma, { projectId }: { projectId: string }): Promise<ProviderView[]> {
  const rows = await prisma.provider.findMany({ where: { projectId }, orderBy: { name: "asc" }, select: viewColumns });
  return rows.map(toView);
}

/**
 * Creates or changes a provider, only once it answers: its address is checked (http(s), no
 * metadata service), then its models are listed with the key it will use (the one typed, or the
 * stored one). A refusal names the field to fix and saves nothing. The key is sealed, bound to
 * the row; `version` moves so every node rebuilds its client.
 */
export async function saveProvider({ prisma, secrets }: ProviderDeps, { projectId, input }: { projectId: string; input: ProviderInput }): Promise<ProviderView> {
  const existing = input.providerId ? await findProvider(prisma, projectId, input.providerId) : null;
  const id = existing?.id ?? randomUUID();
  const apiKey = input.apiKey || (existing ? storedKey(secrets, existing) : "");
  if (input.kind === "openai" && !apiKey) throw fieldError(KEY_FIELD, "OpenAI needs an API key.");
  await assertProviderAddress(input.baseUrl);
  const apiVersion = input.kind === "azure" ? input.apiVersion : null;
  const models = await listModels({ apiKey: apiKey || "no-key", baseURL: input.baseUrl, apiVersion: apiVersion ?? undefined });
  const data = {
    name: input.name,
    kind: input.kind,
    baseUrl: input.baseUrl,
    apiKey: apiKey ? secrets.seal({ [KEY_FIELD]: apiKey }, sealContext(id)) : null,
    apiVersion,
    models,
    checkedAt: new Date(),
  };
  try {
    const row = existing
      ? await prisma.provider.update({ where: { id }, data: { ...data, version: { increment: 1 } }, select: viewColumns })
      : await prisma.provider.create({ data: { id, projectId, ...data }, select: viewColumns });
    return toView(row);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError("name", `A provider named ${input.name} already exists. Choose another name.`);
    throw error;
  }
}

/** "Test connection": the models it lists now, kept for agents to choose from; a failure is said and nothing changes. */
export async function testProvider({ prisma, secrets }: ProviderDeps, { projectId, providerId }: { projectId: string; providerId: string }): Promise<ProviderView> {
  const row = await findProvider(prisma, projectId, providerId);
  await assertProviderAddress(row.baseUrl);
  const models = await listModels({ apiKey: storedKey(secrets, row) || "no-key", baseURL: row.baseUrl, apiVersion: row.apiVersion ?? undefined });
  return toView(await prisma.provider.update({ where: { id: row.id }, data: { models, checkedAt: new Date() }, select: viewColumns }));
}

/** Deletes a provider no agent uses; otherwise says which agents to move first. */
export async function deleteProvider(prisma: Prisma, { projectId, providerId }: { projectId: string; providerId: string }): Promise<void> {
  const row = await findProvider(prisma, projectId, providerId);
  const agents = await prisma.agent.findMany({ where: { providerId: row.id }, select: { displayName: true } });
  if (agents.length > 0) {
    throw new AppError("conflict", `${agents.map((agent) => agent.displayName).join(", ")} ${agents.length === 1 ? "answers" : "answer"} through ${row.name}: choose another provider for ${agents.length === 1 ? "it" : "them"} first.`);
  }
  await prisma.provider.delete({ where: { id: row.id } });
}

/** The opened key a provider row holds ("" for none); an unreadable one must be typed again. */
export function storedKey(secrets: SecretBox, row: { id: string; apiKey: string | null }): string {
  if (!row.apiKey) return "";
  try {
    return secrets.open(row.apiKey, sealContext(row.id))[KEY_FIELD] ?? "";
  } catch (error) {
    if (error instanceof SecretUnreadableError) throw fieldError(KEY_FIELD, `The stored key ${error.message}.`);
    throw error;
  }
}

async function findProvider(prisma: Prisma, projectId: string, providerId: string) {
  const row = await prisma.provider.findFirst({ where: { id: providerId, projectId }, select: { id: true, name: true, baseUrl: true, apiKey: true, apiVersion: true } });
  if (!row) throw new AppError("not_found", "That provider no longer exists. Reload the page.");
  return row;
}

function fieldError(field: string, message: string): AppError {
  return new AppError("bad_request", message, { [field]: message });
}

const viewColumns = {
  id: true,
  name: true,
  kind: true,
  baseUrl: true,
  apiKey: true,
  apiVersion: true,
  models: true,
  checkedAt: true,
  agents: { where: { deletedAt: null }, select: { displayName: true }, orderBy: { displayName: "asc" } },
} as const;

function toView(row: { id: string; name: string; kind: string; baseUrl: string; apiKey: string | null; apiVersion: string | null; models: unknown; checkedAt: Date | null; agents: { displayName: string }[] }): ProviderView {
  return {
    id: row.id,
    name: row.name,
    kind: (PROVIDER_KIND_IDS as string[]).includes(row.kind) ? (row.kind as ProviderKind) : "other",
    baseUrl: row.baseUrl,
    apiVersion: row.apiVersion,
    hasKey: row.apiKey !== null,
    models: Array.isArray(row.models) ? row.models.filter((model): model is string => typeof model === "string") : [],
    checkedAt: row.checkedAt?.toISOString() ?? null,
    agents: row.agents.map((agent) => agent.displayName),
  };
}
