import { decisionRoute } from "../decide";

/** Approves an ask-first tool call (the person whose message started the turn, or an admin); approving again answers the same. */
export const POST = decisionRoute("approve-tool-call", async () => ({ kind: "approve" }));
