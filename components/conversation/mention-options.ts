import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { parseMentions } from "@/lib/conversations/parse-mentions";
import type { PanelChoice } from "@/lib/panels/list-panel-choices";
import { adHocPanelRefusal, PANEL_HANDLE as PANEL } from "@/lib/panels/panel-rules";
const MAX_OPTIONS = 6;

export interface MentionOption {
  /** Unique among the options and usable in an element id. */
  key: string;
  handle: string;
  name: string;
  kind: "user" | "agent" | "panel";
  /** What a panel option does, or who sits on it. */
  detail?: string;
}

export interface PanelContext {
  /** Panels are asked in group conversations only. */
  allowed: boolean;
  saved: PanelChoice[];
}

const enabledAgents = (participants: ParticipantDto[]) => participants.filter((participant) => participant.kind === "agent" && !participant.disabled);

/**
 * What "@query" completes to: the people and agents here, then `@panel` and the saved panels.
 * After `@panel` (`textBefore` is the text before the query) the agents come first: they are the ones being seated.
 */
export function mentionOptions(query: string, participants: ParticipantDto[], panels: PanelContext, textBefore = ""): MentionOption[] {
  const matches = (handle: string, name: string) => handle.startsWith(query) || name.toLowerCase().startsWith(query);
  const seating = panels.allowed && parseMentions(textBefore).includes(PANEL);
  const ordered = seating ? [...participants].sort((a, b) => Number(b.kind === "agent") - Number(a.kind === "agent")) : participants;
  const people = ordered.filter((p) => matches(p.handle, p.name)).map((p): MentionOption => ({ key: p.id, handle: p.handle, name: p.name, kind: p.kind }));
  if (!panels.allowed) return people.slice(0, MAX_OPTIONS);
  const adHoc: MentionOption[] = enabledAgents(participants).length >= 2 && matches(PANEL, PANEL) ? [{ key: "panel", handle: PANEL, name: "Panel", kind: "panel", detail: "agents you mention next answer together" }] : [];
  const saved = panels.saved
    .filter((panel) => matches(panel.handle, panel.name))
    .map((panel): MentionOption => ({ key: `panel-${panel.handle}`, handle: panel.handle, name: panel.name, kind: "panel", detail: panel.agents.join(", ") }));
  return [...people, ...adHoc, ...saved].slice(0, MAX_OPTIONS);
}

const names = (list: string[]) => (list.length <= 1 ? list.join("") : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`);

/**
 * What the text being typed would ask, when it asks a panel: who will answer, or why the server
 * will refuse it (in the server's words), said before sending.
 */
export function panelPreview(text: string, participants: ParticipantDto[], panels: PanelContext): { ok: boolean; text: string } | null {
  if (!panels.allowed) return null;
  const mentions = parseMentions(text);
  if (mentions.includes(PANEL)) {
    const agents = mentions.flatMap((handle) => participants.filter((p) => p.kind === "agent" && p.handle.toLowerCase() === handle));
    const refusal = adHocPanelRefusal(agents.map((agent) => ({ handle: agent.handle, enabled: !agent.disabled })));
    if (refusal) return { ok: false, text: refusal };
    return { ok: true, text: `Panel: ${names(agents.map((agent) => agent.name))} will answer together, then vote for the best answer.` };
  }
  const saved = panels.saved.find((panel) => mentions.includes(panel.handle.toLowerCase()));
  if (!saved) return null;
  if (saved.refusal) return { ok: false, text: saved.refusal };
  return { ok: true, text: `${saved.name}: ${names(saved.agents)} will answer together, then vote for the best answer.` };
}
