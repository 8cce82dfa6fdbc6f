import { AppError } from "@/lib/errors/app-error";

/**
 * Who may manage a conversation, in the words the server's refusals and the header's settings
 * share (browser-safe: no database). The caller is already known to take part in it.
 */
export interface ManagedConversation {
  type: "group" | "dm" | "agent_dm" | "fork";
  key: "global" | "per_room" | "direct_message";
  title: string;
  createdByUserId: string | null;
}

export interface Manager {
  userId: string;
  isAdmin: boolean;
}

/** A signed-in user as these rules see them: admins manage every channel they are in. */
export function managerOf(user: { id: string; role: string }): Manager {
  return { userId: user.id, isAdmin: user.role === "admin" };
}

export type ManageAction = "rename" | "topic" | "archive" | "add_member" | "remove_member" | "leave";

export interface Refusal {
  code: "bad_request" | "forbidden" | "conflict";
  message: string;
}

const whatChannelManagersDo: Record<ManageAction, string> = {
  rename: "rename",
  topic: "change the topic of",
  archive: "archive or unarchive",
  add_member: "add people to",
  remove_member: "remove people or agents from",
  leave: "leave",
};

/** Null when `actor` may do `action` here; otherwise why not, for a person to act on. */
export function manageRefusal(conversation: ManagedConversation, actor: Manager, action: ManageAction): Refusal | null {
  if (conversation.type === "fork") {
    return { code: "conflict", message: "A forked context is a specialist's own workspace: it can't be renamed, archived, left or given members." };
  }
  if (conversation.type === "dm") {
    return { code: "conflict", message: "A direct message is always between the same two people: it can't be renamed, archived, left or given members. Start a channel to talk with more people." };
  }
  if (conversation.type === "agent_dm") return agentChatRefusal(action);
  if (action === "rename" && conversation.key === "per_room") {
    return { code: "bad_request", message: `A room is named after what it belongs to (${conversation.title}), so its name can't change. Set a topic instead.` };
  }
  // Anyone in a channel may leave it or bring someone in (as anyone may add an agent): that is
  // the only way into a private channel. The rest is for admins and the channel's creator.
  if (action === "leave" || action === "add_member") return null;
  if (actor.isAdmin || (conversation.createdByUserId !== null && conversation.createdByUserId === actor.userId)) return null;
  const who = conversation.createdByUserId ? "admins and the person who created it" : "admins";
  return { code: "forbidden", message: `Only ${who} can ${whatChannelManagersDo[action]} #${conversation.title}.` };
}

/** As manageRefusal, thrown as the AppError every entry point answers with. */
export function assertManageable(conversation: ManagedConversation, actor: Manager, action: ManageAction): void {
  const refusal = manageRefusal(conversation, actor, action);
  if (refusal) throw new AppError(refusal.code, refusal.message);
}

/** Archived conversations are read-only: their names and members change once they are unarchived. */
export function archivedRefusal(): AppError {
  return new AppError("conflict", "This conversation is archived, so it is read-only. Unarchive it first.");
}

/** An agent chat is its person's own: they rename and archive it; it has no topic and no other members. */
function agentChatRefusal(action: ManageAction): Refusal | null {
  switch (action) {
    case "rename":
    case "archive":
      return null;
    case "topic":
      return { code: "bad_request", message: "Only channels have a topic. Rename the chat instead." };
    case "leave":
      return { code: "bad_request", message: "An agent chat can't be left: archive it instead." };
    case "add_member":
    case "remove_member":
      return { code: "bad_request", message: "An agent chat is between one person and one agent. Start a channel to bring others in." };
  }
}

/** What the settings offer this person: each action they may take. */
export function allowedActions(conversation: ManagedConversation, actor: Manager): Set<ManageAction> {
  const actions: ManageAction[] = ["rename", "topic", "archive", "add_member", "remove_member", "leave"];
  return new Set(actions.filter((action) => manageRefusal(conversation, actor, action) === null));
}
