import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { StepCallMetadata } from "@/lib/conversations/message-metadata";
import { queuedTurnText } from "@/lib/dispatch/queued-turn";
import { approvalUiReducer, denialOf, idleApproval, sendToolDecision, toolDecisionRequest, type ApprovalUi } from "@/hooks/use-tool-approval";
import { ApprovalRecord, mayDecide, PendingApproval, StepApprovals, type ApprovalViewer } from "./approval-card";
import { QueuedTurns } from "./queued-turns";
import { agentMessage, scout } from "./agent-message.fixture";

const ana = { id: "ana", name: "Ana" };
const addNote: StepCallMetadata = { id: "call-1", name: "notes__add_note", server: "notes", tool: "add_note", arguments: '{"title":"Plans","body":"Trip"}', askFirst: true, approval: "pending", approvalId: "ap1" };

function stepMessage(calls: StepCallMetadata[], askedBy: { id: string; name: string } | null = ana): MessageDto {
  return agentMessage({ id: "s1", seq: 2, metadata: { toolStep: { calls, usedTokens: 900, turnStartedAt: "2026-01-01T10:00:00.000Z", askedBy } } });
}

const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'");
const buttons = (html: string) => [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].map((match) => ({ name: text(match[2]!), disabled: /disabled=""/.test(match[1]!) }));
const renderStep = (viewer: ApprovalViewer | null, calls: StepCallMetadata[] = [addNote], askedBy: { id: string; name: string } | null = ana) =>
  renderToStaticMarkup(<StepApprovals message={stepMessage(calls, askedBy)} viewer={viewer} />);
const noop = () => {};
const renderPending = (state: Partial<ApprovalUi>, canDecide = true) =>
  renderToStaticMarkup(
    <PendingApproval
      call={addNote}
      agentName="Scout"
      askedBy={ana}
      canDecide={canDecide}
      state={{ ...idleApproval, ...state }}
      ids={{ heading: "h", reason: "r" }}
      onApprove={noop}
      onDeny={noop}
      onReason={noop}
      onConfirm={noop}
      onCancel={noop}
    />,
  );

describe("ApprovalCard", () => {
  it("is a group named by what the agent wants to run, and shows its arguments", () => {
    const html = renderStep({ userId: "ana", isAdmin: false });
    const heading = /<div role="group" aria-labelledby="([^"]+)"/.exec(html)?.[1];
    expect(heading).toBeTruthy();
    expect(text(new RegExp(`<p id="${heading}"[^>]*>(.*?)</p>`).exec(html)![1]!)).toBe("Scout wants to use add_note (notes)");
    expect(text(html)).toContain('{\n  "title": "Plans",\n  "body": "Trip"\n}');
  });

  it("offers Approve and Deny, named by the tool, to the person who asked", () => {
    const html = renderStep({ userId: "ana", isAdmin: false });
    expect(buttons(html)).toEqual([
      { name: "Approve add_note", disabled: false },
      { name: "Deny add_note", disabled: false },
    ]);
    expect(html).not.toContain("Waiting for");
  });

  it("offers them to an admin too, even when no person asked", () => {
    expect(buttons(renderStep({ userId: "root", isAdmin: true })).map((button) => button.name)).toEqual(["Approve add_note", "Deny add_note"]);
    expect(buttons(renderStep({ userId: "root", isAdmin: true }, [addNote], null))).toHaveLength(2);
  });

  it("shows everyone else who it waits for, and no buttons", () => {
    for (const viewer of [{ userId: "bob", isAdmin: false }, null, { userId: "ana", isAdmin: false, readOnly: true }]) {
      const html = renderStep(viewer);
      expect(buttons(html)).toEqual([]);
      expect(text(html)).toContain("Waiting for Ana to approve");
    }
    expect(text(renderStep({ userId: "bob", isAdmin: false }, [addNote], null))).toContain("Waiting for an admin to approve");
    expect(mayDecide({ userId: "bob", isAdmin: false }, null)).toBe(false);
  });

  it("turns into a one-line record once decided, and shows nothing for calls that did not ask", () => {
    const html = renderStep({ userId: "ana", isAdmin: false }, [
      { ...addNote, id: "1", approval: "approved", decidedBy: "Ana" },
      { ...addNote, id: "2", approval: "denied", decidedBy: "Ana", reason: "not now" },
      { ...addNote, id: "3", approval: "expired" },
      { ...addNote, id: "4", tool: "search_notes", approval: "none", askFirst: false },
    ]);
    expect(buttons(html)).toEqual([]);
    expect(html).not.toContain('role="group"');
    expect([...html.matchAll(/<p[^>]*>(.*?)<\/p>/g)].map((match) => text(match[1]!))).toEqual([
      "add_note (notes): approved by Ana",
      "add_note (notes): denied by Ana (not now)",
      "add_note (notes): approval expired",
    ]);
    expect(renderStep({ userId: "ana", isAdmin: false }, [{ ...addNote, approval: "none" }])).toBe("");
    expect(renderToStaticMarkup(<ApprovalRecord call={{ ...addNote, approval: "approved" }} />)).toContain("add_note</span> (notes): approved</p>");
  });

  it("opens a labelled, optional reason field with Confirm and Cancel when Deny is pressed", () => {
    const html = renderPending({ denying: true, reason: "not now" });
    expect(html).toMatch(/aria-expanded="true"[^>]*>Deny/);
    expect(html).toContain('<label for="r" class="w-full text-xs text-muted">Reason for denying (optional)</label>');
    expect(html).toMatch(/<input id="r" type="text" autofocus=""[^>]* maxLength="500"[^>]* value="not now"\/>/);
    expect(buttons(html).map((button) => button.name)).toEqual(["Approve add_note", "Deny add_note", "Confirm deny", "Cancel"]);
    expect(renderPending({})).not.toContain("<input");
  });

  it("disables the buttons while the request runs and after the server took it, until the message changes", () => {
    for (const state of [{ busy: true }, { sent: true }]) {
      expect(buttons(renderPending({ ...state, denying: true })).every((button) => button.disabled)).toBe(true);
    }
    expect(renderPending({ busy: true })).toContain('<p role="status" class="sr-only">Sending your decision…</p>');
  });

  it("shows the server's sentence when a request fails, and lets the person try again", () => {
    const html = renderPending({ error: "Ana already denied this call." });
    expect(html).toContain('<p role="alert" class="text-xs text-danger">Ana already denied this call.</p>');
    expect(buttons(html).every((button) => !button.disabled)).toBe(true);
  });
});

describe("deciding a call", () => {
  type Sent = { url: string; init: RequestInit };
  const fakeFetch = (status: number, body: unknown, sent: Sent[] = []) =>
    (async (url: string, init: RequestInit) => {
      sent.push({ url, init });
      return new Response(body === undefined ? "not json" : JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
    }) as unknown as typeof fetch;

  it("walks the card from Deny through the reason to the request, which carries the reason", async () => {
    let state = approvalUiReducer(idleApproval, { type: "deny" });
    state = approvalUiReducer(state, { type: "reason", reason: "  not now " });
    const decision = denialOf(state);
    expect(decision).toEqual({ decision: "deny", reason: "not now" });
    const sent: Sent[] = [];
    const approval = await sendToolDecision("ap 1", decision, fakeFetch(200, { data: { approval: { id: "ap 1", status: "denied", decidedBy: "Ana" } } }, sent));
    expect(approval).toEqual({ id: "ap 1", status: "denied", decidedBy: "Ana" });
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe("/api/tool-calls/ap%201/deny");
    expect(sent[0]!.init.method).toBe("POST");
    expect(JSON.parse(sent[0]!.init.body as string)).toEqual({ reason: "not now" });
  });

  it("denies without a reason when none was given, and approves with no body", () => {
    expect(denialOf(approvalUiReducer(idleApproval, { type: "deny" }))).toEqual({ decision: "deny" });
    expect(JSON.parse(toolDecisionRequest("ap1", { decision: "deny" }).init.body as string)).toEqual({});
    expect(toolDecisionRequest("ap1", { decision: "approve" })).toEqual({ url: "/api/tool-calls/ap1/approve", init: { method: "POST" } });
    expect(JSON.parse(toolDecisionRequest("ap1", { decision: "deny", reason: "x".repeat(600) }).init.body as string).reason).toHaveLength(500);
  });

  it("accepts the bare answer shape too", async () => {
    await expect(sendToolDecision("ap1", { decision: "approve" }, fakeFetch(200, { approval: { id: "ap1", status: "approved", decidedBy: "Ana" } }))).resolves.toEqual({ id: "ap1", status: "approved", decidedBy: "Ana" });
  });

  it("rejects with the server's sentence, whichever error shape it sends", async () => {
    await expect(sendToolDecision("ap1", { decision: "approve" }, fakeFetch(409, { error: "This call was already decided by Ana." }))).rejects.toThrow("This call was already decided by Ana.");
    await expect(sendToolDecision("ap1", { decision: "approve" }, fakeFetch(403, { error: { code: "forbidden", message: "Only Ana or an admin may decide." } }))).rejects.toThrow("Only Ana or an admin may decide.");
    await expect(sendToolDecision("ap1", { decision: "approve" }, fakeFetch(502, undefined))).rejects.toThrow("Your decision was not recorded (HTTP 502). Try again.");
    const offline = (async () => {
      throw new TypeError("Failed to fetch");
    }) as unknown as typeof fetch;
    await expect(sendToolDecision("ap1", { decision: "approve" }, offline)).rejects.toThrow("Could not reach Chorus. Check your connection and try again.");
  });

  it("keeps the card's state: busy while sending, the error after a failure, locked once sent", () => {
    let state = approvalUiReducer({ ...idleApproval, error: "old" }, { type: "send" });
    expect(state).toMatchObject({ busy: true, error: null });
    state = approvalUiReducer(state, { type: "failed", error: "The turn ended before your decision." });
    expect(state).toMatchObject({ busy: false, sent: false, error: "The turn ended before your decision." });
    expect(approvalUiReducer(approvalUiReducer(state, { type: "send" }), { type: "sent" })).toMatchObject({ busy: false, sent: true, error: null });
    expect(approvalUiReducer({ ...idleApproval, denying: true, reason: "x" }, { type: "cancel" })).toEqual(idleApproval);
  });
});

describe("a turn waiting for approval", () => {
  it("reads as waiting for approval in the queued turns", () => {
    const turn = { dispatchId: "d1", conversationId: "c1", replyToMessageId: "m1", agent: scout, state: "awaiting_approval" as const, ahead: 0, retryInMs: null };
    expect(queuedTurnText(turn)).toBe("Scout is waiting for approval");
    const html = renderToStaticMarkup(<QueuedTurns turns={[turn]} onStop={noop} canStop={() => false} />);
    expect(html).toContain('aria-label="Scout is waiting for approval"');
    expect(html).not.toContain("tries again");
  });
});
