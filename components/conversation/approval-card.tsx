"use client";

import { useEffect, useId, useRef, type Ref } from "react";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { StepCallMetadata } from "@/lib/conversations/message-metadata";
import { DENY_REASON_MAX, denialOf, useToolApproval, type ApprovalUi } from "@/hooks/use-tool-approval";
import { approvalText, prettyArguments, ToolText } from "./tool-step";

type AskedBy = { id: string; name: string } | null;

/** Who is looking: the asker of the turn, or an admin, may decide its calls. */
export interface ApprovalViewer {
  userId: string;
  isAdmin: boolean;
  /** Archived: nothing is offered. */
  readOnly?: boolean;
}

export function mayDecide(viewer: ApprovalViewer | null, askedBy: AskedBy): boolean {
  if (!viewer || viewer.readOnly) return false;
  return viewer.isAdmin || (askedBy !== null && askedBy.id === viewer.userId);
}

/** "Waiting for Ana to approve", or an admin when nobody asked (the turn was not a person's). */
export function waitingText(askedBy: AskedBy): string {
  return askedBy ? `Waiting for ${askedBy.name} to approve` : "Waiting for an admin to approve";
}

const button = "rounded-md px-3 py-1 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-50";
const primary = `${button} bg-brand-600 text-white hover:bg-brand-700`;
const secondary = `${button} border border-slate-300 bg-white text-muted-strong hover:bg-slate-100 dark:border-slate-600 dark:bg-slate-900 dark:hover:bg-slate-800`;

export interface PendingApprovalProps {
  call: StepCallMetadata;
  agentName: string;
  askedBy: AskedBy;
  canDecide: boolean;
  state: ApprovalUi;
  ids: { heading: string; reason: string };
  denyRef?: Ref<HTMLButtonElement>;
  onApprove: () => void;
  onDeny: () => void;
  onReason: (reason: string) => void;
  onConfirm: () => void;
  onCancel: () => void;
}

/** A call waiting for approval, as a card: what the agent wants to run, and the decision (or who it waits for). */
export function PendingApproval({ call, agentName, askedBy, canDecide, state, ids, denyRef, onApprove, onDeny, onReason, onConfirm, onCancel }: PendingApprovalProps) {
  const locked = state.busy || state.sent;
  return (
    <div role="group" aria-labelledby={ids.heading} className="my-1 max-w-xl space-y-1.5 rounded-md border border-amber-300 bg-amber-50 p-2 text-sm dark:border-amber-700 dark:bg-amber-950/40">
      <p id={ids.heading} className="font-medium text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100">
        {agentName} wants to use <span className="font-mono">{call.tool}</span> ({call.server})
      </p>
      <ToolText label="Arguments" text={prettyArguments(call.arguments)} />
      {canDecide ? (
        <>
          <div className="flex flex-wrap items-center gap-2">
            <button type="button" disabled={locked} onClick={onApprove} className={primary}>
              Approve<span className="sr-only"> {call.tool}</span>
            </button>
            <button type="button" ref={denyRef} disabled={locked} aria-expanded={state.denying} onClick={onDeny} className={secondary}>
              Deny<span className="sr-only"> {call.tool}</span>
            </button>
          </div>
          {state.denying && (
            <form
              className="flex flex-wrap items-center gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                onConfirm();
              }}
            >
              <label htmlFor={ids.reason} className="w-full text-xs text-muted">
                Reason for denying (optional)
              </label>
              <input
                id={ids.reason}
                type="text"
                autoFocus
                value={state.reason}
                maxLength={DENY_REASON_MAX}
                disabled={locked}
                onChange={(event) => onReason(event.target.value)}
                onKeyDown={(event) => {
                  if (event.key === "Escape") {
                    event.preventDefault();
                    onCancel();
                  }
                }}
                className="min-w-0 flex-1 basis-40 rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-900 dark:border-slate-600 dark:bg-slate-900 dark:text-slate-100"
              />
              <button type="submit" disabled={locked} className={primary}>
                Confirm<span className="sr-only"> deny</span>
              </button>
              <button type="button" disabled={locked} onClick={onCancel} className={secondary}>
                Cancel
              </button>
            </form>
          )}
        </>
      ) : (
        <p className="text-xs text-muted">{waitingText(askedBy)}</p>
      )}
      {state.error && (
        <p role="alert" className="text-xs text-danger">
          {state.error}
        </p>
      )}
      <p role="status" className="sr-only">
        {state.busy ? "Sending your decision…" : state.sent ? "Decision sent" : ""}
      </p>
    </div>
  );
}

/** A decided call, in one line: "add_note (notes): denied by Ana (not now)". */
export function ApprovalRecord({ call, recordRef }: { call: StepCallMetadata; recordRef?: Ref<HTMLParagraphElement> }) {
  return (
    <p ref={recordRef} tabIndex={-1} className="text-xs text-muted [overflow-wrap:anywhere]">
      <span className="font-mono">{call.tool}</span> ({call.server}): {approvalText(call)}
    </p>
  );
}

function ApprovalCard({ call, agentName, askedBy, canDecide, onDeciding }: { call: StepCallMetadata; agentName: string; askedBy: AskedBy; canDecide: boolean; onDeciding: (deciding: boolean) => void }) {
  const { state, dispatch, decide } = useToolApproval(call.approvalId);
  const id = useId();
  const denyRef = useRef<HTMLButtonElement>(null);
  const send = (decision: Parameters<typeof decide>[0]) => {
    // Marked before the request: the message's update may arrive before its answer.
    onDeciding(true);
    void decide(decision).then((taken) => taken || onDeciding(false));
  };
  return (
    <PendingApproval
      call={call}
      agentName={agentName}
      askedBy={askedBy}
      canDecide={canDecide && Boolean(call.approvalId)}
      state={state}
      ids={{ heading: `${id}-heading`, reason: `${id}-reason` }}
      denyRef={denyRef}
      onApprove={() => send({ decision: "approve" })}
      onDeny={() => dispatch({ type: state.denying ? "cancel" : "deny" })}
      onReason={(reason) => dispatch({ type: "reason", reason })}
      onConfirm={() => send(denialOf(state))}
      onCancel={() => {
        dispatch({ type: "cancel" });
        denyRef.current?.focus();
      }}
    />
  );
}

/** One call's approval: its card while pending, then its record. Focus follows the person who decided. */
function CallApproval({ call, agentName, askedBy, canDecide }: { call: StepCallMetadata; agentName: string; askedBy: AskedBy; canDecide: boolean }) {
  const decidedHere = useRef(false);
  const record = useRef<HTMLParagraphElement>(null);
  const pending = call.approval === "pending";
  useEffect(() => {
    // The card the person was using is gone: keep their place on its record.
    if (!pending && decidedHere.current) {
      decidedHere.current = false;
      record.current?.focus();
    }
  }, [pending]);
  if (pending) return <ApprovalCard call={call} agentName={agentName} askedBy={askedBy} canDecide={canDecide} onDeciding={(deciding) => (decidedHere.current = deciding)} />;
  return <ApprovalRecord call={call} recordRef={record} />;
}

/** Whether a tool step has anything to show: its text, or calls that asked first. */
export function stepHasContent(message: MessageDto): boolean {
  return message.content.trim() !== "" || (message.metadata.toolStep?.calls.some((call) => call.approval !== "none") ?? false);
}

/** The approvals of a tool step's calls: a card for each pending one, a line for each decided one. */
export function StepApprovals({ message, viewer }: { message: MessageDto; viewer: ApprovalViewer | null }) {
  const step = message.metadata.toolStep;
  if (!step) return null;
  const calls = step.calls.filter((call) => call.approval !== "none");
  if (calls.length === 0) return null;
  const agentName = message.author.kind === "agent" ? message.author.displayName : (message.metadata.agentDisplayName ?? "The agent");
  const canDecide = mayDecide(viewer, step.askedBy);
  return (
    <div className="space-y-1">
      {calls.map((call) => (
        <CallApproval key={call.id} call={call} agentName={agentName} askedBy={step.askedBy} canDecide={canDecide} />
      ))}
    </div>
  );
}
