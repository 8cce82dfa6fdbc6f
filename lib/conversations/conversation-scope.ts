import { createHash } from "node:crypto";
import { z } from "zod";

/**
 * A conversation's identity within (project, key) is its scope, enforced unique in the database:
 * the same channel name, the same room, or the same set of participants finds the same thread.
 */
export type Party = { userId: string } | { agentId: string };

export const channelNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "Channel names are 1–40 lowercase letters, digits or dashes, starting with a letter or digit.");

export const roomSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9_-]+(:[a-z0-9_.-]+)*$/i, "A room is a name like task:42 (letters, digits, colons, dashes).")
  .max(100, "Room names can be at most 100 characters.");

export const channelScope = (name: string) => `name:${name}`;
export const roomScope = (room: string) => `room:${room.toLowerCase()}`;

/** Order-independent: {Alice, Bob} and {Bob, Alice} are the same conversation. */
export function participantsScope(parties: Party[]): string {
  const ids = parties.map((party) => ("userId" in party ? `u:${party.userId}` : `a:${party.agentId}`)).sort();
  return `participants:${createHash("sha256").update(ids.join(",")).digest("hex")}`;
}
