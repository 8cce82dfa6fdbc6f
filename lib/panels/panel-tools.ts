import { z } from "zod";
import type { ToolSpec } from "@/lib/llm/types";

export const NEW_ANSWER_TOOL = "new_answer";
export const VOTE_TOOL = "vote";

/** A real model's two moves in a panel round. */
export function panelTools(answerIds: string[]): ToolSpec[] {
  const tools: ToolSpec[] = [
    {
      name: NEW_ANSWER_TOOL,
      description: "Give your answer to the question (it replaces your earlier one, if any).",
      parameters: { type: "object", properties: { content: { type: "string", description: "Your complete answer." } }, required: ["content"] },
    },
  ];
  if (answerIds.length > 0) {
    tools.push({
      name: VOTE_TOOL,
      description: "Vote for the best current answer (yours included) instead of answering again.",
      parameters: {
        type: "object",
        properties: { answer_id: { type: "string", enum: answerIds, description: "The id of the answer you vote for." }, reason: { type: "string", description: "Why, in one sentence." } },
        required: ["answer_id", "reason"],
      },
    });
  }
  return tools;
}

export type PanelMove = { kind: "answer"; content: string } | { kind: "vote"; answerId: string; reason: string };

const answerArguments = z.object({ content: z.string().trim().min(1).max(20_000) });
const voteArguments = z.object({ answer_id: z.string().trim().min(1).max(100), reason: z.string().trim().max(1_000).default("") });

/**
 * What a model did in its round: a vote or a new answer by tool call, else its text as a new
 * answer. Null when it gave nothing usable.
 */
export function readPanelMove(text: string, toolCalls: { name: string; arguments: string }[]): PanelMove | null {
  for (const call of toolCalls) {
    const parsed = parseJson(call.arguments);
    if (call.name === VOTE_TOOL) {
      const vote = voteArguments.safeParse(parsed);
      if (vote.success) return { kind: "vote", answerId: vote.data.answer_id, reason: vote.data.reason };
    } else if (call.name === NEW_ANSWER_TOOL) {
      const answer = answerArguments.safeParse(parsed);
      if (answer.success) return { kind: "answer", content: answer.data.content };
    }
  }
  return text.trim() ? { kind: "answer", content: text.trim() } : null;
}

function parseJson(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    return null;
  }
}
