import { TYPING_TTL_MS, type TypingActor, type TypingEvent } from "@/lib/realtime/events";

export type Typists = Map<string, { actor: TypingActor; expiresAt: number }>;

export function applyTypingEvent(typists: Typists, event: TypingEvent, now: number): Typists {
  const next = new Map(typists);
  if (event.typing) next.set(event.actor.id, { actor: event.actor, expiresAt: now + TYPING_TTL_MS });
  else next.delete(event.actor.id);
  return next;
}

/** The entries still alive; the same map when none expired. */
export function withoutExpired(typists: Typists, now: number): Typists {
  const alive = [...typists].filter(([, entry]) => entry.expiresAt > now);
  return alive.length === typists.size ? typists : new Map(alive);
}

/** What the indicator says for these typists. */
export function typistsLabel(typists: Typists): string | null {
  return describeTypists([...typists.values()].map((entry) => entry.actor));
}

/**
 * "Alice is typing…", "Alice and Bob are typing…", "Alice and 2 others are typing…"; agents "are
 * thinking", or say what they do when one alone has an activity ("Scout is using search_notes…").
 */
export function describeTypists(actors: TypingActor[]): string | null {
  if (actors.length === 0) return null;
  const [first, second] = actors;
  // The server's words, without an ellipsis of their own: the line adds one.
  const activity = actors.length === 1 && first!.kind === "agent" ? first!.activity?.trim().replace(/(…|\.{3})$/, "") : undefined;
  if (activity) return `${first!.name} is ${activity}…`;
  const verb = (plural: boolean) => (actors.every((actor) => actor.kind === "agent") ? (plural ? "are thinking…" : "is thinking…") : plural ? "are typing…" : "is typing…");
  if (actors.length === 1) return `${first!.name} ${verb(false)}`;
  if (actors.length === 2) return `${first!.name} and ${second!.name} ${verb(true)}`;
  return `${first!.name} and ${actors.length - 1} others ${verb(true)}`;
}
