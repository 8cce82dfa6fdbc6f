"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import type { ActionResult } from "@/lib/actions/safe-action";
import type { ProjectDirectory } from "@/lib/projects/project-directory";
import { Avatar } from "@/components/ui/avatar";
import { useMenu } from "@/components/ui/use-menu";

export type AddAgentAction = (input: unknown) => Promise<ActionResult<unknown>>;

/** Brings another agent of the project into a group conversation. */
export function AddAgentMenu({ conversationId, agents, addAgent }: { conversationId: string; agents: ProjectDirectory["agents"]; addAgent: AddAgentAction }) {
  const router = useRouter();
  const { open, close, triggerProps, menuProps } = useMenu();
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const add = async (agentId: string) => {
    setBusy(true);
    const result = await addAgent({ conversationId, agentId }).catch(() => ({ error: { message: "Could not reach Chorus. Try again." } }));
    setBusy(false);
    if ("error" in result) return setError(result.error.message);
    setError(null);
    close(true);
    router.refresh();
  };

  return (
    <div className="relative">
      <button
        type="button"
        {...triggerProps}
        className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
      >
        Add agent
      </button>
      {open && (
        <div {...menuProps} aria-label="Agents to add" className="absolute right-0 top-full z-10 mt-1 w-56 rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900">
          {agents.length === 0 && <p className="px-3 py-1.5 text-xs text-muted">Every agent of the project is already here.</p>}
          {agents.map((agent) => (
            <button
              key={agent.id}
              type="button"
              role="menuitem"
              disabled={busy}
              onClick={() => void add(agent.id)}
              className="flex w-full items-center gap-2 rounded-md px-3 py-1.5 text-left text-sm hover:bg-slate-100 focus:bg-slate-100 disabled:opacity-50 dark:hover:bg-slate-800 dark:focus:bg-slate-800"
            >
              <Avatar name={agent.displayName} colour={agent.color} size="xs" />
              {agent.displayName} <span className="text-xs text-muted">@{agent.handle}</span>
            </button>
          ))}
          {error && (
            <p role="alert" className="px-3 py-1 text-xs text-danger">
              {error}
            </p>
          )}
        </div>
      )}
    </div>
  );
}
