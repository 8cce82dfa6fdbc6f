import { assertAdmin } from "@/lib/auth/assert-admin";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Prisma } from "@/lib/db/open-database";
import { isUniqueViolation } from "@/lib/db/unique-violation";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/log/logger";
import { findPrimaryProject } from "@/lib/projects/primary-project";
import { providerColumns, readContextSettings, toAgentColumns, type AgentConfig, type ContextSettings } from "./agent-settings";
import type { AgentProvider } from "@/lib/llm/types";

/** An agent as the admin area shows and edits it. */
export interface AdminAgent {
  id: string;
  handle: string;
  displayName: string;
  color: string;
  description: string;
  systemPrompt: string;
  provider: AgentProvider;
  /** provider custom: the configured provider (lib/providers). */
  providerId: string | null;
  model: string;
  temperature: number;
  maxOutputTokens: number;
  historyWindow: number;
  /** Tokens per calendar month (UTC); null: no cap. */
  monthlyTokenCap: number | null;
  /** USD per million tokens; null: not priced. */
  inputUsdPerMillion: number | null;
  outputUsdPerMillion: number | null;
  enabled: boolean;
  contextSettings: ContextSettings;
  updatedAt: string;
}

/** The columns an admin edits (the settings form), which a copy of the agent takes too. */
export const agentSettingsColumns = {
  handle: true,
  displayName: true,
  color: true,
  description: true,
  systemPrompt: true,
  provider: true,
  providerId: true,
  model: true,
  temperature: true,
  maxOutputTokens: true,
  historyWindow: true,
  monthlyTokenCap: true,
  inputUsdPerMillion: true,
  outputUsdPerMillion: true,
  contextSettings: true,
} as const;

const adminAgentSelect = { id: true, ...agentSettingsColumns, enabled: true, updatedAt: true } as const;

type AgentRow = Omit<AdminAgent, "contextSettings" | "updatedAt"> & { contextSettings: unknown; updatedAt: Date };

const toAdminAgent = (row: AgentRow): AdminAgent => ({ ...row, contextSettings: readContextSettings(row.contextSettings), updatedAt: row.updatedAt.toISOString() });

/** The admin's project (the one admin pages manage), or forbidden for anyone else. */
export async function adminProject(prisma: Prisma, actor: SessionUser): Promise<string> {
  assertAdmin(actor);
  const project = await findPrimaryProject(prisma, { userId: actor.id });
  if (!project) throw new AppError("forbidden", "You are not a member of any project.");
  return project.id;
}

export async function listAgents(prisma: Prisma, { actor }: { actor: SessionUser }): Promise<AdminAgent[]> {
  const projectId = await adminProject(prisma, actor);
  const rows = await prisma.agent.findMany({ where: { projectId, deletedAt: null }, orderBy: [{ enabled: "desc" }, { displayName: "asc" }], select: adminAgentSelect });
  return rows.map(toAdminAgent);
}

export async function getAgent(prisma: Prisma, { actor, agentId }: { actor: SessionUser; agentId: string }): Promise<AdminAgent> {
  const projectId = await adminProject(prisma, actor);
  const row = await prisma.agent.findFirst({ where: { id: agentId, projectId, deletedAt: null }, select: adminAgentSelect });
  if (!row) throw new AppError("not_found", "That agent does not exist in your project.");
  return toAdminAgent(row);
}

export async function createAgent(prisma: Prisma, { actor, config }: { actor: SessionUser; config: AgentConfig }): Promise<AdminAgent> {
  const projectId = await adminProject(prisma, actor);
  await assertHandleFree(prisma, projectId, config.handle);
  await assertProviderChoice(prisma, projectId, config);
  const row = await withHandleConflict(config.handle, () =>
    prisma.agent.create({ data: { projectId, ...toAgentColumns(config) }, select: adminAgentSelect }),
  );
  log.info("agent created", { agentId: row.id, handle: row.handle, by: actor.id });
  return toAdminAgent(row);
}

export async function updateAgent(prisma: Prisma, { actor, agentId, config }: { actor: SessionUser; agentId: string; config: AgentConfig }): Promise<AdminAgent> {
  const projectId = await adminProject(prisma, actor);
  await assertHandleFree(prisma, projectId, config.handle);
  await assertProviderChoice(prisma, projectId, config);
  const row = await withHandleConflict(config.handle, async () => {
    const { count } = await prisma.agent.updateMany({ where: { id: agentId, projectId, deletedAt: null }, data: toAgentColumns(config) });
    if (count === 0) throw new AppError("not_found", "That agent does not exist in your project.");
    return prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: adminAgentSelect });
  });
  log.info("agent updated", { agentId, by: actor.id });
  return toAdminAgent(row);
}

/** A disabled agent keeps its history but is no longer dispatched, listed or mentionable. */
export async function setAgentEnabled(prisma: Prisma, { actor, agentId, enabled }: { actor: SessionUser; agentId: string; enabled: boolean }): Promise<AdminAgent> {
  const projectId = await adminProject(prisma, actor);
  const { count } = await prisma.agent.updateMany({ where: { id: agentId, projectId }, data: { enabled } });
  if (count === 0) throw new AppError("not_found", "That agent does not exist in your project.");
  log.info(enabled ? "agent enabled" : "agent disabled", { agentId, by: actor.id });
  return toAdminAgent(await prisma.agent.findUniqueOrThrow({ where: { id: agentId }, select: adminAgentSelect }));
}

/** A configured provider must be this project's, and the model one it listed (when it listed any). */
async function assertProviderChoice(prisma: Prisma, projectId: string, config: AgentConfig): Promise<void> {
  const { providerId } = providerColumns(config.provider);
  if (!providerId) return;
  const provider = await prisma.provider.findFirst({ where: { id: providerId, projectId }, select: { name: true, models: true } });
  if (!provider) throw new AppError("bad_request", "That provider no longer exists. Choose another.", { provider: "That provider no longer exists. Choose another." });
  const models = Array.isArray(provider.models) ? provider.models : [];
  if (models.length > 0 && !models.includes(config.model)) {
    const message = `${provider.name} does not list ${config.model}. Choose one of its models, or test its connection again in Providers.`;
    throw new AppError("bad_request", message, { model: message });
  }
}

/** A person's handle and an agent's must differ, or an @mention could not say whom it means. */
async function assertHandleFree(prisma: Prisma, projectId: string, handle: string): Promise<void> {
  const member = await prisma.user.findFirst({ where: { handle, memberships: { some: { projectId } } }, select: { id: true } });
  if (member) throw handleTaken(handle, "a member of this project");
}

async function withHandleConflict<T>(handle: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw handleTaken(handle, "another agent");
    throw error;
  }
}

const handleTaken = (handle: string, owner: string) =>
  new AppError("conflict", `@${handle} is already used by ${owner}.`, { handle: `@${handle} is already used by ${owner}.` });
