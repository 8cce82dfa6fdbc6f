"use client";

import { useCallback, useReducer } from "react";
import type { approvalStates } from "@/lib/conversations/message-metadata";

/** The longest reason the server takes with a denial. */
export const DENY_REASON_MAX = 500;

export type ToolDecision = { decision: "approve" } | { decision: "deny"; reason?: string };

/** The server's answer to a decision; the message itself changes by `message:updated`. */
export interface DecidedApproval {
  id: string;
  status: (typeof approvalStates)[number];
  decidedBy: string | null;
}

const unreachable = "Could not reach Chorus. Check your connection and try again.";

/** The request for a decision: approve has no body; deny sends its reason, if any. */
export function toolDecisionRequest(approvalId: string, decision: ToolDecision): { url: string; init: RequestInit } {
  const url = `/api/tool-calls/${encodeURIComponent(approvalId)}/${decision.decision}`;
  if (decision.decision === "approve") return { url, init: { method: "POST" } };
  const reason = decision.reason?.trim().slice(0, DENY_REASON_MAX);
  return { url, init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(reason ? { reason } : {}) } };
}

/** The sentence of an `{ error }` answer, whether a string or `{ message }`. */
function errorText(body: unknown): string | null {
  const error = (body as { error?: unknown } | null)?.error;
  if (typeof error === "string") return error;
  const message = (error as { message?: unknown } | undefined)?.message;
  return typeof message === "string" ? message : null;
}

/**
 * Sends a decision. Resolves with the server's record of it, or rejects with the server's sentence
 * for the person (403, 404, 409…) or a connection failure in words.
 */
export async function sendToolDecision(approvalId: string, decision: ToolDecision, fetchImpl: typeof fetch = fetch): Promise<DecidedApproval> {
  const { url, init } = toolDecisionRequest(approvalId, decision);
  const response = await fetchImpl(url, init).catch(() => null);
  if (!response) throw new Error(unreachable);
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) throw new Error(errorText(body) ?? `Your decision was not recorded (HTTP ${response.status}). Try again.`);
  // Route handlers answer `{ data }`; accept the bare shape too.
  const answer = body as { approval?: DecidedApproval; data?: { approval?: DecidedApproval } } | null;
  return answer?.data?.approval ?? answer?.approval ?? { id: approvalId, status: decision.decision === "approve" ? "approved" : "denied", decidedBy: null };
}

/** Where one approval card stands: the reason field, a request on its way, the last failure. */
export interface ApprovalUi {
  /** Deny was pressed: the reason field and Confirm/Cancel show. */
  denying: boolean;
  reason: string;
  /** A request is on its way: the buttons are disabled. */
  busy: boolean;
  /** The server took the decision; the card waits for the message's update and offers nothing more. */
  sent: boolean;
  error: string | null;
}

export type ApprovalUiAction =
  | { type: "deny" }
  | { type: "cancel" }
  | { type: "reason"; reason: string }
  | { type: "send" }
  | { type: "sent" }
  | { type: "failed"; error: string };

export const idleApproval: ApprovalUi = { denying: false, reason: "", busy: false, sent: false, error: null };

export function approvalUiReducer(state: ApprovalUi, action: ApprovalUiAction): ApprovalUi {
  switch (action.type) {
    case "deny":
      return { ...state, denying: true, error: null };
    case "cancel":
      return { ...state, denying: false, reason: "", error: null };
    case "reason":
      return { ...state, reason: action.reason.slice(0, DENY_REASON_MAX) };
    case "send":
      return { ...state, busy: true, error: null };
    case "sent":
      return { ...state, busy: false, sent: true };
    case "failed":
      return { ...state, busy: false, error: action.error };
  }
}

/** The denial the card sends: its reason, trimmed, or none. */
export function denialOf(state: ApprovalUi): ToolDecision {
  const reason = state.reason.trim();
  return reason ? { decision: "deny", reason } : { decision: "deny" };
}

/**
 * Approve or deny one call (`decide` resolves true when the server took it). Nothing in the thread changes here: the step message's update from the
 * server turns the card into its record; until then the buttons stay disabled.
 */
export function useToolApproval(approvalId: string | undefined, fetchImpl?: typeof fetch) {
  const [state, dispatch] = useReducer(approvalUiReducer, idleApproval);
  const decide = useCallback(
    async (decision: ToolDecision): Promise<boolean> => {
      if (!approvalId) return false;
      dispatch({ type: "send" });
      try {
        await sendToolDecision(approvalId, decision, fetchImpl);
        dispatch({ type: "sent" });
        return true;
      } catch (error) {
        dispatch({ type: "failed", error: error instanceof Error ? error.message : unreachable });
        return false;
      }
    },
    [approvalId, fetchImpl],
  );
  return { state, dispatch, decide };
}
