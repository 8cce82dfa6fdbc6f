import { readDenial } from "@/lib/tool-calls/decision-input";
import { decisionRoute } from "../decide";

/** Denies an ask-first tool call, `{"reason": "…"}` optional: the model is told it did not run, and why. */
export const POST = decisionRoute("deny-tool-call", readDenial);
