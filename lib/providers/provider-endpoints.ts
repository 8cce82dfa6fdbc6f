import type { Prisma } from "@/lib/db/open-database";
import { AppError } from "@/lib/errors/app-error";
import { createOpenAIProvider } from "@/lib/llm/openai-provider";
import { LlmError, type LlmProvider, type LoopMessage } from "@/lib/llm/types";
import type { SecretBox } from "@/lib/mcp/secret-box";
import { storedKey } from "./manage-providers";
import { assertProviderAddress } from "./provider-address";

interface EndpointRow {
  id: string;
  name: string;
  baseUrl: string;
  apiKey: string | null;
  apiVersion: string | null;
  version: number;
}

/**
 * The endpoint an agent of a configured provider calls. Its provider's row is read on every
 * call (one lookup by primary key, next to a model call), so a change made on any node applies
 * at the next answer; the client is rebuilt only when the row's `version` moved.
 */
export function providerEndpoints({ prisma, secrets, timeoutMs, inlineImages }: { prisma: Prisma; secrets: SecretBox; timeoutMs?: number; inlineImages?: (messages: LoopMessage[]) => Promise<LoopMessage[]> }) {
  const built = new Map<string, { version: number; provider: LlmProvider }>();
  return async (agentId: string): Promise<LlmProvider> => {
    const [row] = await prisma.$queryRaw<EndpointRow[]>`
      SELECT p."id", p."name", p."baseUrl", p."apiKey", p."apiVersion", p."version"
      FROM "agents" a JOIN "providers" p ON p."id" = a."providerId" WHERE a."id" = ${agentId}`;
    if (!row) throw new LlmError("This agent's provider is no longer configured. An admin can choose another in the agent's settings.", "bad_request");
    const known = built.get(row.id);
    if (known?.version === row.version) return known.provider;
    const provider = await build(row);
    built.set(row.id, { version: row.version, provider });
    return provider;
  };

  async function build(row: EndpointRow): Promise<LlmProvider> {
    const where = `the provider “${row.name}” (Manage agents → Providers)`;
    try {
      await assertProviderAddress(row.baseUrl);
      const apiKey = storedKey(secrets, row) || "no-key";
      return createOpenAIProvider({ apiKey, baseURL: row.baseUrl, apiVersion: row.apiVersion ?? undefined, timeoutMs, inlineImages, source: { key: `the key of ${where}`, address: `the address of ${where}` } });
    } catch (error) {
      if (error instanceof AppError) throw new LlmError(`${where} cannot be used: ${error.message}`, "bad_request");
      throw error;
    }
  }
}
