"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";

export function AgentEnabledToggle({
  agentId,
  name,
  enabled,
  action,
}: {
  agentId: string;
  name: string;
  enabled: boolean;
  action: (input: unknown) => Promise<ActionResult<unknown>>;
}) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toggle = async () => {
    setBusy(true);
    const result = await action({ agentId, enabled: !enabled }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    setBusy(false);
    if ("error" in result) return setError(result.error.message);
    setError(null);
    router.refresh();
  };
  return (
    <>
      <button type="button" onClick={() => void toggle()} disabled={busy} className="text-link hover:underline disabled:opacity-50">
        {enabled ? `Disable` : `Enable`}
        <span className="sr-only"> {name}</span>
      </button>
      {error && <span role="alert" className="block text-xs text-danger">{error}</span>}
    </>
  );
}
