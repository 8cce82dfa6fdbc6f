/** A way of doing something, as a reply described it: a name and its steps. */
export interface DetectedProcedure {
  name: string;
  steps: string[];
}

const STEP = /^\s*(\d+)[.)]\s+(.+)$/;

/**
 * The offline detector: a reply that walks through at least three numbered steps (1. 2. 3.)
 * describes a procedure worth keeping, named after the first line of the question it answered. A person reviews
 * it (pending) before it is ever used.
 */
export function detectProcedure(question: string, reply: string): DetectedProcedure | null {
  const steps: string[] = [];
  for (const line of reply.split("\n")) {
    const match = STEP.exec(line);
    if (match && Number(match[1]) === steps.length + 1) steps.push(match[2]!.trim());
  }
  if (steps.length < 3) return null;
  const topic = question.split("\n")[0]!.replace(/@[\w.-]+/g, "").replace(/\s+/g, " ").trim().replace(/[?.!]+$/, "");
  return { name: topic.length > 0 ? topic.slice(0, 80) : "Procedure", steps: steps.slice(0, 20) };
}
