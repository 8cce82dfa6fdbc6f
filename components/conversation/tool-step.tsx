import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import { durationText } from "@/components/ui/duration-text";

type ToolResult = NonNullable<MessageMetadata["toolResult"]>;

/** A model's arguments as people read them: indented JSON when they parse, else as given. */
export function prettyArguments(text: string): string {
  if (!text.trim()) return "(no arguments)";
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** "120 ms", "2.4 s", "1 min 5 s". */
export function toolDuration(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  return durationText(ms);
}

/** Whether the call ran: a denied or expired one never did, and its result says so. */
function ran(result: ToolResult): boolean {
  return result.approval !== "denied" && result.approval !== "expired";
}

/** The summary's words: "Used search_notes (notes) · 120 ms", "Did not use add_note (notes)". */
export function toolStepSummary(result: ToolResult): string {
  return ran(result) ? `Used ${result.tool} (${result.server}) · ${toolDuration(result.ms)}` : `Did not use ${result.tool} (${result.server})`;
}

/** What the approval of a call says in a line: "approved by Ana", "denied by Ana (not now)", "approval expired". */
export function approvalText({ approval, decidedBy, reason }: { approval: ToolResult["approval"]; decidedBy?: string; reason?: string }): string | null {
  const by = decidedBy ? ` by ${decidedBy}` : "";
  if (approval === "approved") return `approved${by}`;
  if (approval === "denied") return `denied${by}${reason ? ` (${reason})` : ""}`;
  if (approval === "expired") return "approval expired";
  return null;
}

const chip = "ml-1.5 rounded px-1 text-[11px] font-semibold";

/** A block of a tool's text: wraps anywhere, scrolls when tall, never wider than the thread. */
export function ToolText({ label, text }: { label: string; text: string }) {
  return (
    <div className="min-w-0">
      <p className="text-[11px] font-semibold uppercase tracking-wide text-muted">{label}</p>
      <pre tabIndex={0} className="max-h-60 overflow-auto whitespace-pre-wrap rounded bg-[var(--code-bg)] p-1.5 font-mono text-xs text-[var(--code-text)] [overflow-wrap:anywhere]">
        {text}
      </pre>
    </div>
  );
}

/**
 * A tool result in the thread: one compact line (what ran, how long, whether it failed or was
 * cut) that opens on the arguments, the result as the model got it, and the error.
 */
export function ToolStep({ message }: { message: MessageDto }) {
  const result = message.metadata.toolResult!;
  const approval = approvalText(result);
  const denied = result.approval === "denied" || result.approval === "expired";
  return (
    <details className="my-0.5 max-w-full rounded-md border border-slate-200 bg-slate-50 dark:border-slate-700 dark:bg-slate-900">
      <summary className="cursor-pointer px-2 py-0.5 text-xs text-muted-strong [overflow-wrap:anywhere]">
        {toolStepSummary(result)}
        {denied && <span className={`${chip} bg-slate-200 text-muted-strong dark:bg-slate-800`}>{result.approval === "denied" ? "denied" : "expired"}</span>}
        {!denied && result.error && <span className={`${chip} bg-red-100 text-danger dark:bg-red-950`}>failed</span>}
        {result.cut && <span className={`${chip} bg-slate-200 text-muted-strong dark:bg-slate-800`}>cut</span>}
      </summary>
      <div className="space-y-1.5 border-t border-slate-200 px-2 py-1.5 text-xs dark:border-slate-700">
        {approval && <p className="text-muted">Approval: {approval}</p>}
        <ToolText label="Arguments" text={prettyArguments(result.arguments)} />
        {result.error && (
          <p className="text-danger [overflow-wrap:anywhere]">
            <span className="font-semibold">Error:</span> {result.error}
          </p>
        )}
        <ToolText label={result.cut ? "Result (cut to fit the agent's budget)" : "Result"} text={message.content} />
      </div>
    </details>
  );
}
