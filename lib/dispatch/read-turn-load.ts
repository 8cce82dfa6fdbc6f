import "server-only";
import { assertAdmin } from "@/lib/auth/assert-admin";
import type { SessionUser } from "@/lib/auth/session-user";
import type { Env } from "@/lib/config/env";
import type { Prisma } from "@/lib/db/open-database";
import { APPROVAL_WAIT, PROVIDER_WAIT } from "./turn-queue";
import type { AgentProvider } from "@/lib/llm/types";

const LIMITS = ["PROVIDER_MAX_CONCURRENT", "PROVIDER_RPM", "PROVIDER_TPM", "AGENT_TURNS_PER_NODE", "MAX_QUEUED_TURNS_PER_CONVERSATION", "MAX_QUEUED_TURNS_PER_PERSON"] as const;

/** The settings that bound agent turns (lib/config/env.ts), as configured on this node. */
export type TurnLimitSettings = Pick<Env, (typeof LIMITS)[number]>;

/** One provider's agent turns now, on every node. */
export interface ProviderLoad {
  provider: AgentProvider;
  /** Calling (or about to call) the model: running under a live lease. */
  running: number;
  /** Waiting their turn: runnable now, not started. */
  queued: number;
  /** Given back to wait for the provider (a 429, or its per-minute limits used up). */
  waitingProvider: number;
  /** Waiting to try again after a failed attempt. */
  retrying: number;
  /** How long the oldest turn not started has waited; null when none waits. */
  oldestWaitingMs: number | null;
  /** What this minute has used of PROVIDER_RPM and PROVIDER_TPM (counted for the OpenAI-compatible provider only). */
  minute: { requests: number; tokens: number };
}

export interface TurnLoad {
  providers: ProviderLoad[];
  limits: TurnLimitSettings;
}

/**
 * Agent turns running and waiting per provider, for admins, in one statement. Counted across the
 * whole deployment, not one project: the limits they are read against are the deployment's.
 */
export async function readTurnLoad(prisma: Prisma, { actor, env }: { actor: Pick<SessionUser, "role">; env: TurnLimitSettings }): Promise<TurnLoad> {
  assertAdmin(actor);
  const providers = await prisma.$queryRaw<ProviderLoad[]>`
    WITH open_turns AS (
      SELECT a."provider", d."createdAt",
             CASE WHEN d."status" = 'running' THEN 'running'
                  WHEN d."runAfter" IS NULL OR d."runAfter" <= now() THEN 'queued'
                  WHEN d."lastError" LIKE ${`${PROVIDER_WAIT}%`} THEN 'waiting_provider'
                  -- A person's decision, not the provider or a failure: counted nowhere.
                  WHEN d."lastError" LIKE ${`${APPROVAL_WAIT}%`} THEN 'awaiting_approval'
                  ELSE 'retrying' END AS "state"
      FROM "dispatches" d JOIN "agents" a ON a."id" = d."agentId"
      -- A running turn whose lease ran out (its node died) counts nowhere until another node takes it.
      WHERE d."status" = 'pending' OR (d."status" = 'running' AND d."leaseUntil" >= now())
    )
    SELECT p."provider"::text AS "provider",
           count(*) FILTER (WHERE t."state" = 'running')::int AS "running",
           count(*) FILTER (WHERE t."state" = 'queued')::int AS "queued",
           count(*) FILTER (WHERE t."state" = 'waiting_provider')::int AS "waitingProvider",
           count(*) FILTER (WHERE t."state" = 'retrying')::int AS "retrying",
           (extract(epoch FROM now() - min(t."createdAt") FILTER (WHERE t."state" NOT IN ('running', 'awaiting_approval'))) * 1000)::float8 AS "oldestWaitingMs",
           json_build_object('requests', COALESCE(max(u."requests"), 0), 'tokens', COALESCE(max(u."tokens"), 0)) AS "minute"
    FROM unnest(enum_range(NULL::"AgentProvider")) AS p("provider")
    LEFT JOIN open_turns t ON t."provider" = p."provider"
    LEFT JOIN "provider_usage" u ON u."provider" = p."provider"::text AND u."window" = date_trunc('minute', now())
    GROUP BY p."provider"
    ORDER BY p."provider"`;
  // Picked one by one: the page is sent to the browser, and the whole env holds secrets.
  const limits = Object.fromEntries(LIMITS.map((name) => [name, env[name]])) as TurnLimitSettings;
  return { providers, limits };
}
