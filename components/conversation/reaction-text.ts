import { emojiName } from "@/lib/reactions/emoji-catalog";

export interface ReactionUser {
  id: string;
  name: string;
}

export interface Reaction {
  emoji: string;
  users: ReactionUser[];
}

/** What one chip under a message shows and says. */
export interface ReactionChip {
  emoji: string;
  count: number;
  /** The current user is among those who reacted: the chip is pressed. */
  mine: boolean;
  /** The accessible name, holding the visible count: "thumbs up: 3 reactions". */
  label: string;
  /** Who reacted, for the tooltip and the accessible description. */
  description: string;
}

// Past this many people a sentence names the first two and counts the rest.
const NAMED = 3;

/** The emoji's name, or the emoji itself if the catalogue doesn't know it (an older reaction). */
export function reactionName(emoji: string): string {
  return emojiName(emoji) ?? emoji;
}

/** "thumbs up: 3 reactions", "red heart: 1 reaction". */
export function reactionLabel(emoji: string, count: number): string {
  return `${reactionName(emoji)}: ${count} ${count === 1 ? "reaction" : "reactions"}`;
}

/**
 * Who reacted, the current user first as "You": "You reacted with thumbs up", "Ada and Bob
 * reacted with …", "Ada, Bob and Cy reacted with …", "You, Ada and 3 others reacted with …".
 */
export function whoReacted(emoji: string, users: readonly ReactionUser[], currentUserId: string): string {
  const you = users.some((user) => user.id === currentUserId);
  const names = [...(you ? ["You"] : []), ...users.filter((user) => user.id !== currentUserId).map((user) => user.name)];
  const listed = names.length <= NAMED ? names : [...names.slice(0, NAMED - 1), `${names.length - (NAMED - 1)} others`];
  const people = listed.length === 1 ? listed[0]! : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)}`;
  return `${people} reacted with ${reactionName(emoji)}`;
}

/** One chip per emoji someone reacted with, in the order given; the same person counted once. */
export function reactionChips(reactions: readonly Reaction[], currentUserId: string): ReactionChip[] {
  return reactions.flatMap(({ emoji, users }) => {
    const unique = [...new Map(users.map((user) => [user.id, user])).values()];
    if (unique.length === 0) return [];
    return [{ emoji, count: unique.length, mine: unique.some((user) => user.id === currentUserId), label: reactionLabel(emoji, unique.length), description: whoReacted(emoji, unique, currentUserId) }];
  });
}
