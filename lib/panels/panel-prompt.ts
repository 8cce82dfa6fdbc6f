import { escapeFrameText } from "@/lib/context/section-text";

/**
 * The one user message a panel agent gets at each start (seed 001's dynamic context
 * reconstruction): the conversation so far, the question, the current answers and the voting
 * state, each in its own section. Every text placed in a section is escaped, so no message can
 * close a section or open one.
 */

export const PANEL_INSTRUCTIONS = [
  "You are one of several agents answering the same question together (a panel).",
  "Read the current answers. If none is good enough, give a better one with new_answer.",
  "If one is good (yours included), vote for it with vote, giving the answer's id and your reason.",
  "Votes for an answer that is later replaced do not count. Be brief.",
].join(" ");

export interface PanelAnswerView {
  id: string;
  /** The agent's @handle. */
  agent: string;
  content: string;
}

export interface PanelVoteView {
  voter: string;
  /** The @handle of the agent whose answer it is for. */
  for: string;
  reason: string;
}

/** A message as "name: text", with its files' frames and notes when it has files (already escaped: lib/context/attachment-forms). */
export type PromptLine = string | { text: string; files: string };

export interface RoundPromptInput {
  /** The conversation before the question (already pruned to the budget). */
  history: PromptLine[];
  question: PromptLine;
  answers: PanelAnswerView[];
  votes: PanelVoteView[];
  round: number;
  maxRounds: number;
}


const section = (name: string, body: string) => `<${name}>\n${body}\n</${name}>`;

/** The answers and voting state: what changes between rounds, and what the history must leave room for. */
export function coordinationSections({ answers, votes, round, maxRounds }: Pick<RoundPromptInput, "answers" | "votes" | "round" | "maxRounds">): string {
  const answerText = answers.length === 0 ? "(no answers yet)" : answers.map((answer) => `<ANSWER id="${answer.id}" agent="${escapeFrameText(answer.agent)}">\n${escapeFrameText(answer.content)}\n</ANSWER>`).join("\n");
  const voteLines = votes.map((vote) => `${escapeFrameText(vote.voter)} voted for ${escapeFrameText(vote.for)}'s answer: ${escapeFrameText(vote.reason)}`);
  const voting = [...(voteLines.length ? voteLines : ["(no votes yet)"]), `Round ${round} of ${maxRounds}.`].join("\n");
  return [section("CURRENT_ANSWERS", answerText), section("VOTING_STATE", voting)].join("\n\n");
}

/** A line's text escaped; its files' frames were escaped when they were made, and are not escaped twice. */
const render = (line: PromptLine) => (typeof line === "string" ? escapeFrameText(line) : escapeFrameText(line.text) + line.files);

export function roundPrompt(input: RoundPromptInput): string {
  const history = input.history.length === 0 ? "(nothing before this question)" : input.history.map(render).join("\n");
  return [section("CONVERSATION_HISTORY", history), section("CURRENT_MESSAGE", render(input.question)), coordinationSections(input)].join("\n\n");
}
