import type { ConversationSummary } from "@/lib/conversations/list-conversations";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { parseMentions } from "@/lib/conversations/parse-mentions";

/** What the composer says about who will not hear the last message (or any, in a disabled agent's chat). */
export function composerHint({
  conversation,
  participants,
  projectAgentHandles,
  unknownMentions,
  lastSent,
}: {
  conversation: Pick<ConversationSummary, "type">;
  participants: ParticipantDto[];
  projectAgentHandles: string[];
  unknownMentions: string[];
  lastSent: string;
}): string | null {
  const disabled = participants.filter((participant) => participant.kind === "agent" && participant.disabled);
  if (conversation.type === "agent_dm" && disabled.length > 0) return `${disabled[0]!.name} is disabled by an admin and will not answer.`;
  const mentioned = new Set(parseMentions(lastSent));
  const silent = disabled.filter((agent) => mentioned.has(agent.handle.toLowerCase()));
  if (silent.length > 0) return `${silent.map((agent) => agent.name).join(", ")} ${silent.length > 1 ? "are" : "is"} disabled by an admin and will not answer.`;
  const agents = new Set(projectAgentHandles.map((handle) => handle.toLowerCase()));
  if (conversation.type === "dm" && unknownMentions.some((handle) => agents.has(handle))) {
    return "Agents don't take part in direct messages: open a chat with the agent, or mention it in a channel.";
  }
  if (unknownMentions.length > 0) return `Nobody here is called ${unknownMentions.map((handle) => `@${handle}`).join(", ")}: nobody was notified.`;
  return null;
}
