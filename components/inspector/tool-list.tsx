import type { ContextSnapshot, ToolItem } from "@/lib/context/types";
import { toolsStyle } from "./section-style";

type Unavailable = NonNullable<ContextSnapshot["toolsUnavailable"]>[number];

const chip = "ml-1.5 rounded bg-slate-200 px-1 text-[11px] font-semibold text-muted-strong dark:bg-slate-800";

/** What the offered tools' definitions add to every call: in `budget.usedTokens`, in no section. */
export function offeredToolTokens(tools: ToolItem[] | undefined): number {
  return (tools ?? []).reduce((sum, tool) => sum + (tool.included ? tool.tokens : 0), 0);
}

/** "notes", or "Chorus" for Chorus's own tools (handoff, capture_procedure). */
export function serverText(server: string): string {
  return server === "chorus" ? "Chorus" : server;
}

function ToolRow({ tool }: { tool: ToolItem }) {
  return (
    <li className="py-1 [overflow-wrap:anywhere]">
      {tool.included ? <span className="font-mono text-xs">{tool.name}</span> : <del className="font-mono text-xs text-muted">{tool.name}</del>}
      {tool.askFirst && <span className={chip}>ask first</span>}
      <span className="block text-xs text-muted">
        {`${serverText(tool.server)} · ${tool.tokens.toLocaleString()} tokens`}
        {!tool.included && <span className="font-semibold text-danger">{` · left out: ${tool.reason ?? "not offered"}`}</span>}
      </span>
    </li>
  );
}

/** The sum in words: where the tools' tokens went, or why none was offered. */
function tokensText(tools: ToolItem[]): string {
  const offered = tools.filter((tool) => tool.included).length;
  const all = tools.reduce((sum, tool) => sum + tool.tokens, 0).toLocaleString();
  if (offered === tools.length) return `${offeredToolTokens(tools).toLocaleString()} tokens of tool definitions, sent with every call: counted in the budget, but in no section.`;
  if (offered === 0) return `No tool was offered: the system prompt, the tools (${all} tokens) and the message did not fit the budget together.`;
  return `${offeredToolTokens(tools).toLocaleString()} of ${all} tokens of tool definitions sent: counted in the budget, but in no section.`;
}

/**
 * The "Tools" part: every tool offered to the model (server, ask-first marker, what its definition
 * costs, why it was left out), the servers whose tools could not be offered, and the tools' sum.
 * Nothing for a turn without tools, or a snapshot older than them.
 */
export function ToolList({ tools = [], unavailable = [] }: { tools?: ToolItem[]; unavailable?: Unavailable[] }) {
  if (tools.length === 0 && unavailable.length === 0) return null;
  const offered = tools.filter((tool) => tool.included).length;
  return (
    <section aria-labelledby="inspector-tools">
      <h3 id="inspector-tools" className="mb-1 text-sm font-semibold">
        Tools
      </h3>
      {tools.length > 0 && (
        <>
          <p className="mb-1 text-xs text-muted">{tokensText(tools)}</p>
          <details className="py-1" open={offered < tools.length}>
            <summary className="flex cursor-pointer items-center gap-2 py-1 text-sm font-medium">
              <span aria-hidden="true" className={`inline-block h-2.5 w-2.5 shrink-0 rounded-sm ${toolsStyle.swatch}`} />
              <span className="flex-1">{offered === tools.length ? `${tools.length} ${tools.length === 1 ? "tool" : "tools"} offered` : `${offered} of ${tools.length} tools offered`}</span>
              <span className="text-xs font-normal text-muted">{offeredToolTokens(tools).toLocaleString()} tokens</span>
            </summary>
            <ul tabIndex={0} className="max-h-72 overflow-y-auto pb-2 pl-5 text-sm" aria-label="Tools offered">
              {tools.map((tool, index) => (
                <ToolRow key={`${index}:${tool.name}`} tool={tool} />
              ))}
            </ul>
          </details>
        </>
      )}
      {unavailable.length > 0 && (
        <>
          <h4 id="inspector-tools-unavailable" className="mt-2 mb-1 text-xs font-semibold">
            Servers not available this turn
          </h4>
          <ul aria-labelledby="inspector-tools-unavailable" className="space-y-0.5 pl-5 text-xs">
            {unavailable.map((entry, index) => (
              <li key={`${index}:${entry.server}`} className="[overflow-wrap:anywhere]">
                <span className="font-semibold">{serverText(entry.server)}</span>
                <span className="text-danger">{`: ${entry.reason}`}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
