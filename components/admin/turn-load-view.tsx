"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ProviderLoad, TurnLimitSettings, TurnLoad } from "@/lib/dispatch/read-turn-load";
import { queryKeys } from "@/hooks/query-keys";
import { durationText } from "@/components/ui/duration-text";

/** Turns start and end within seconds: the counts are read again this often. */
const REFRESH_MS = 3_000;

const providerNames: Record<ProviderLoad["provider"], string> = { openai: "Server's endpoint (OPENAI_BASE_URL)", offline: "Offline model", custom: "Configured providers" };

/** "3 of 16", or the count alone with "no limit" when the setting is 0. */
const ofLimit = (count: number, limit: number) => (limit > 0 ? `${count.toLocaleString("en")} of ${limit.toLocaleString("en")}` : `${count.toLocaleString("en")} (no limit)`);

/** A fact with, when it is a setting, the variable that sets it (so the admin knows what to change). */
function Fact({ label, setting, children }: { label: string; setting?: string; children: ReactNode }) {
  return (
    <div className="flex items-baseline justify-between gap-4 py-1">
      <dt className="min-w-0">
        {label}
        {setting && <code className="block break-all text-xs text-muted">{setting}</code>}
      </dt>
      <dd className="shrink-0 text-right font-semibold tabular-nums">{children}</dd>
    </div>
  );
}

function ProviderCard({ load, limits }: { load: ProviderLoad; limits: TurnLimitSettings }) {
  const limited = load.provider === "openai";
  return (
    <section aria-labelledby={`provider-${load.provider}`} className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
      <h2 id={`provider-${load.provider}`} className="font-semibold">
        {providerNames[load.provider]}
      </h2>
      <dl className="divide-y divide-slate-100 dark:divide-slate-800">
        {limited ? (
          <Fact label="Running, on all nodes" setting="PROVIDER_MAX_CONCURRENT">
            {ofLimit(load.running, limits.PROVIDER_MAX_CONCURRENT)}
          </Fact>
        ) : (
          <Fact label="Running, on all nodes">{load.running}</Fact>
        )}
        <Fact label="Queued">{load.queued}</Fact>
        <Fact label="Waiting for the provider">{load.waitingProvider}</Fact>
        {load.retrying > 0 && <Fact label="Trying again after an error">{load.retrying}</Fact>}
        <Fact label="Oldest waiting">{load.oldestWaitingMs === null ? "none" : durationText(load.oldestWaitingMs)}</Fact>
        {limited && (
          <>
            <Fact label="Requests this minute" setting="PROVIDER_RPM">
              {ofLimit(load.minute.requests, limits.PROVIDER_RPM)}
            </Fact>
            <Fact label="Tokens this minute" setting="PROVIDER_TPM">
              {ofLimit(load.minute.tokens, limits.PROVIDER_TPM)}
            </Fact>
          </>
        )}
      </dl>
    </section>
  );
}

/** Agent turns per provider, read again every few seconds, with the limits they run under. */
export function TurnLoadView({ initial, read }: { initial: TurnLoad; read: (input: unknown) => Promise<ActionResult<TurnLoad>> }) {
  const { data, error } = useQuery({
    queryKey: queryKeys.turnLoad(),
    queryFn: async () => {
      const result = await read(undefined);
      if ("error" in result) throw new Error(result.error.message);
      return result.data;
    },
    initialData: initial,
    refetchInterval: REFRESH_MS,
  });
  const { limits } = data;
  return (
    <div className="space-y-4">
      <p role="status" className="text-xs text-muted">
        {error ? `Could not refresh: ${error.message}` : `Updated every ${REFRESH_MS / 1_000} seconds.`}
      </p>
      <div className="grid gap-4 sm:grid-cols-2">
        {data.providers.map((load) => (
          <ProviderCard key={load.provider} load={load} limits={limits} />
        ))}
      </div>
      <section aria-labelledby="turn-limits" className="rounded-lg border border-slate-200 p-3 text-sm dark:border-slate-800">
        <h2 id="turn-limits" className="font-semibold">
          Limits for every provider
        </h2>
        <dl className="divide-y divide-slate-100 dark:divide-slate-800">
          <Fact label="Turns one node runs at once" setting="AGENT_TURNS_PER_NODE">
            {limits.AGENT_TURNS_PER_NODE}
          </Fact>
          <Fact label="Open turns in one conversation" setting="MAX_QUEUED_TURNS_PER_CONVERSATION">
            {limits.MAX_QUEUED_TURNS_PER_CONVERSATION}
          </Fact>
          <Fact label="Open turns asked by one person" setting="MAX_QUEUED_TURNS_PER_PERSON">
            {limits.MAX_QUEUED_TURNS_PER_PERSON}
          </Fact>
        </dl>
      </section>
    </div>
  );
}
