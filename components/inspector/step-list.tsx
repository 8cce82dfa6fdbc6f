import type { StepRecord } from "@/lib/context/types";
import { approvalText, prettyArguments, toolDuration } from "@/components/conversation/tool-step";
import { serverText } from "./tool-list";

const chip = "ml-1.5 rounded px-1 text-[11px] font-semibold";
const shortLength = 60;

/** Arguments on one line, cut to fit a phone's row: compact JSON when they parse, else as given. */
export function shortArguments(text: string): string {
  let line: string;
  try {
    line = JSON.stringify(JSON.parse(text));
  } catch {
    line = text.replace(/\s+/g, " ").trim();
  }
  return line.length > shortLength ? `${line.slice(0, shortLength - 1)}…` : line;
}

/** "+120 ms", "+12,400 ms": when the call started, from the turn's first step. */
export function startedText(startedAt: number): string {
  return `+${Math.max(0, Math.round(startedAt)).toLocaleString()} ms`;
}

/** The arguments, short in the summary; opened, indented JSON that wraps and scrolls. */
function StepArguments({ step }: { step: StepRecord }) {
  if (!step.arguments.trim()) return <p className="text-xs text-muted">No arguments</p>;
  return (
    <details className="min-w-0 text-xs">
      <summary className="cursor-pointer text-muted [overflow-wrap:anywhere]">
        Arguments: <span className="font-mono">{shortArguments(step.arguments)}</span>
      </summary>
      <pre
        tabIndex={0}
        aria-label={`Arguments of ${step.tool}`}
        className="mt-1 max-h-60 overflow-auto whitespace-pre-wrap rounded bg-[var(--code-bg)] p-1.5 font-mono text-xs text-[var(--code-text)] [overflow-wrap:anywhere]"
      >
        {prettyArguments(step.arguments)}
      </pre>
    </details>
  );
}

function StepRow({ step, end }: { step: StepRecord; end: number }) {
  const notRun = step.approval === "denied" || step.approval === "expired";
  const approval = approvalText(step);
  const facts = [`started ${startedText(step.startedAt)}`, `took ${toolDuration(step.ms)}`, `result ${step.resultTokens.toLocaleString()} tokens${step.cut ? " (cut to the agent's limit)" : ""}`];
  return (
    <li className="space-y-1 py-2 text-sm">
      <p className="[overflow-wrap:anywhere]">
        <span className="font-mono text-xs font-medium">{step.tool}</span>
        <span className="text-xs text-muted"> ({serverText(step.server)})</span>
        {notRun && <span className={`${chip} bg-slate-200 text-muted-strong dark:bg-slate-800`}>not run</span>}
        {!notRun && step.error && <span className={`${chip} bg-red-100 text-danger dark:bg-red-950`}>failed</span>}
        {step.cut && <span className={`${chip} bg-slate-200 text-muted-strong dark:bg-slate-800`}>cut</span>}
      </p>
      <p className="text-xs text-muted">
        {facts.join(" · ")}
        {approval && <span className={notRun ? "font-semibold text-muted-strong" : ""}>{` · ${approval}`}</span>}
      </p>
      <span aria-hidden="true" className="relative block h-1.5 overflow-hidden rounded bg-slate-100 dark:bg-slate-800">
        <span className="absolute inset-y-0 rounded bg-orange-600" style={{ left: `${(step.startedAt / end) * 100}%`, width: `${Math.max(1, (step.ms / end) * 100)}%` }} />
      </span>
      {step.error && (
        <p className={`text-xs [overflow-wrap:anywhere] ${notRun ? "text-muted-strong" : "text-danger"}`}>
          {notRun ? step.error : <><span className="font-semibold">Error:</span> {step.error}</>}
        </p>
      )}
      <StepArguments step={step} />
    </li>
  );
}

/**
 * The "Tool calls" part: each call the model asked for in this turn, in order: the tool and its
 * server, when it started and how long it took, who approved or denied it, what its result cost,
 * whether it was cut or failed, and its arguments (opened on demand). Nothing when there were none.
 */
export function StepList({ steps = [] }: { steps?: StepRecord[] }) {
  if (steps.length === 0) return null;
  const end = Math.max(0.001, ...steps.map((step) => step.startedAt + step.ms));
  return (
    <section aria-labelledby="inspector-steps">
      <h3 id="inspector-steps" className="text-sm font-semibold">
        Tool calls ({steps.length})
      </h3>
      <ol className="list-decimal divide-y divide-slate-200 pl-6 marker:text-xs marker:text-muted dark:divide-slate-800" aria-label="Tool calls in order">
        {steps.map((step, index) => (
          <StepRow key={`${index}:${step.callId}`} step={step} end={end} />
        ))}
      </ol>
    </section>
  );
}
