import { AppError } from "@/lib/errors/app-error";
import type { Party } from "./conversation-scope";

export type ConversationType = "group" | "dm" | "agent_dm";

/** Which participant sets each type allows, refused with the reason in words. */
export function assertValidParticipants(type: ConversationType, parties: Party[]): void {
  const users = new Set(parties.flatMap((party) => ("userId" in party ? [party.userId] : [])));
  const agents = new Set(parties.flatMap((party) => ("agentId" in party ? [party.agentId] : [])));
  if (type === "dm") {
    if (agents.size > 0) throw new AppError("bad_request", "A direct message is between two people only; to talk with an agent, open a chat with it.");
    if (users.size !== 2) throw new AppError("bad_request", "A direct message is between exactly two different people.");
  }
  if (type === "agent_dm" && (users.size !== 1 || agents.size !== 1 || parties.length !== 2)) {
    throw new AppError("bad_request", "An agent chat has exactly one person and one agent.");
  }
  if (type === "group" && parties.length === 0) {
    throw new AppError("bad_request", "A group conversation needs at least one participant.");
  }
}
