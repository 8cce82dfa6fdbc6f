import { jsonResponse } from "@/lib/http/json-response";
import type { Runtime } from "@/lib/runtime/runtime";
import { requireApiUser } from "@/lib/session/api-user";
import { decideToolCall, type Decision } from "@/lib/tool-calls/decide-tool-call";
import { parseApprovalId } from "@/lib/tool-calls/decision-input";

export type Params = { params: Promise<{ approvalId: string }> };

/** A route that takes one decision on an ask-first call, read from the request. */
export function decisionRoute(name: string, readDecision: (request: Request) => Promise<Decision>) {
  return (request: Request, { params }: Params) =>
    jsonResponse(name, async () => {
      const { runtime, user } = await requireApiUser(request);
      const approvalId = parseApprovalId((await params).approvalId);
      const decision = await readDecision(request);
      return { approval: await decideToolCall(toolDecisions(runtime), { actor: user, approvalId, decision }) };
    });
}

function toolDecisions(runtime: Runtime) {
  return { prisma: runtime.db.prisma, publisher: runtime.realtime, wake: (dispatchId: string) => runtime.dispatcher?.wake([dispatchId]) };
}
