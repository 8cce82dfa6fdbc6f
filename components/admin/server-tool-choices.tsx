"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { useId, useState } from "react";
import type { McpTool } from "@/lib/mcp/mcp-connection";
import type { McpServerView } from "@/lib/mcp/mcp-server-view";

/** Past this many tools a server's list gets a filter box and scrolls in a box of its own. */
const LONG_LIST_FROM = 10;

const countText = (count: number) => (count === 1 ? "1 tool" : `${count.toLocaleString("en")} tools`);
const matches = (tool: McpTool, filter: string) => [tool.name, tool.title, tool.description].some((text) => text?.toLowerCase().includes(filter));

function ToolChoice({ tool, askFirst, onChange }: { tool: McpTool; askFirst: boolean | undefined; onChange: (askFirst: boolean | undefined) => void }) {
  const id = useId();
  const chosen = askFirst !== undefined;
  return (
    <li className="flex flex-wrap items-start gap-x-4 gap-y-1 py-2">
      <div className="min-w-0 flex-1">
        <label className="flex items-start gap-2 text-sm">
          <input type="checkbox" checked={chosen} onChange={(event) => onChange(event.target.checked ? false : undefined)} aria-describedby={tool.description ? `${id}-description` : undefined} className="mt-0.5 h-4 w-4 shrink-0" />
          <code className="break-all font-semibold">{tool.name}</code>
        </label>
        {tool.description && (
          // Long descriptions are cut on screen; a screen reader hears them whole.
          <p id={`${id}-description`} className="ml-6 line-clamp-2 text-xs text-muted">
            {tool.description}
          </p>
        )}
      </div>
      {chosen && (
        <label className="ml-6 flex items-center gap-2 text-sm sm:ml-0">
          <input type="checkbox" checked={askFirst} onChange={(event) => onChange(event.target.checked)} className="h-4 w-4" />
          Ask first<span className="sr-only"> before {tool.name} runs</span>
        </label>
      )}
    </li>
  );
}

/** Saved tools the server no longer lists: the API would refuse them, so saving drops them, and says so first. */
function Unlisted({ names, server }: { names: string[]; server: string }) {
  if (names.length === 0) return null;
  return (
    <p className="text-sm text-danger">
      {server} no longer lists {names.join(", ")}: saving removes {names.length === 1 ? "it" : "them"}.
    </p>
  );
}

/** One server's tools to choose from: while it is asked, why it did not answer, or its tools with a filter. */
export function ServerToolChoices({ server, query, chosen, onChange }: { server: McpServerView; query: UseQueryResult<{ tools: McpTool[] }>; chosen: Record<string, boolean>; onChange: (tools: Record<string, boolean>) => void }) {
  const id = useId();
  const [filter, setFilter] = useState("");
  const tools = query.data?.tools ?? [];
  const isLong = tools.length > LONG_LIST_FROM;
  const shown = filter.trim() ? tools.filter((tool) => matches(tool, filter.trim().toLowerCase())) : tools;
  const chosenNames = Object.keys(chosen);
  const unlisted = query.isSuccess ? chosenNames.filter((name) => !tools.some((tool) => tool.name === name)) : [];
  const choose = (name: string, askFirst: boolean | undefined) => {
    const others = Object.fromEntries(Object.entries(chosen).filter(([other]) => other !== name));
    onChange(askFirst === undefined ? others : { ...others, [name]: askFirst });
  };

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800">
      <h2 id={`${id}-title`} className="flex flex-wrap items-baseline gap-x-2 font-semibold">
        <span className="break-all">{server.name}</span>
        <span className="text-sm font-normal text-muted">{query.isSuccess ? `${chosenNames.length - unlisted.length} of ${countText(tools.length)} chosen` : `${countText(chosenNames.length)} chosen`}</span>
      </h2>
      {query.isPending && <p className="text-sm text-muted">Asking {server.name} for its tools…</p>}
      {query.isError && (
        <div className="space-y-2 text-sm">
          <p className="text-danger">{query.error.message}</p>
          {chosenNames.length > 0 && <p className="text-muted">Its chosen tools stay chosen ({chosenNames.join(", ")}), but saving needs the server to answer.</p>}
          <button type="button" onClick={() => void query.refetch()} className="rounded-md border border-slate-400 px-2 py-1 text-xs font-semibold text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800">
            Try again<span className="sr-only"> to reach {server.name}</span>
          </button>
        </div>
      )}
      {query.isSuccess && (
        <>
          <Unlisted server={server.name} names={unlisted} />
          {tools.length === 0 && <p className="text-sm text-muted">{server.name} lists no tools.</p>}
          {isLong && (
            <div className="flex flex-wrap items-end gap-x-3 gap-y-1">
              <label className="min-w-0 flex-1 text-sm font-medium">
                Filter {server.name}&apos;s tools
                <input type="search" value={filter} onChange={(event) => setFilter(event.target.value)} className="mt-1 w-full rounded-md border border-slate-400 bg-white px-2 py-1.5 text-sm dark:border-slate-600 dark:bg-slate-950" />
              </label>
              <p aria-live="polite" className="text-sm text-muted">
                {filter.trim() ? `${shown.length} of ${countText(tools.length)} shown` : ""}
              </p>
            </div>
          )}
          {/* A long list scrolls in its own box, so the servers after it stay in reach. */}
          <ul aria-label={`Tools of ${server.name}`} className={`divide-y divide-slate-100 dark:divide-slate-800 ${isLong ? "max-h-[28rem] overflow-y-auto pr-1" : ""}`}>
            {shown.map((tool) => (
              <ToolChoice key={tool.name} tool={tool} askFirst={chosen[tool.name]} onChange={(askFirst) => choose(tool.name, askFirst)} />
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
