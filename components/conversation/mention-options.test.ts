import { describe, expect, it } from "vitest";
import type { ParticipantDto } from "@/lib/conversations/list-participants";
import { mentionOptions, panelPreview } from "./mention-options";

const agent = (handle: string, disabled = false): ParticipantDto => ({ kind: "agent", id: handle, handle, name: handle[0]!.toUpperCase() + handle.slice(1), color: "#0ea5e9", avatarUrl: null, disabled });
const ann: ParticipantDto = { kind: "user", id: "ann", handle: "ann", name: "Ann", color: null, avatarUrl: null };
const board = { handle: "review-board", name: "Review board", agents: ["Toby", "Ada"], refusal: null };
const group = { allowed: true, saved: [board] };

describe("mention options", () => {
  it("offers @panel and saved panels in a group with two agents, after the people and agents", () => {
    const participants = [ann, agent("toby"), agent("ada")];
    expect(mentionOptions("", participants, group).map((option) => `${option.kind}:${option.handle}`)).toEqual(["user:ann", "agent:toby", "agent:ada", "panel:panel", "panel:review-board"]);
    expect(mentionOptions("pa", participants, group)).toEqual([{ key: "panel", handle: "panel", name: "Panel", kind: "panel", detail: "agents you mention next answer together" }]);
    expect(mentionOptions("rev", participants, group)).toMatchObject([{ handle: "review-board", detail: "Toby, Ada" }]);
  });

  it("puts agents first once the text asks a panel", () => {
    const participants = [{ ...ann, handle: "adam", name: "Adam" }, agent("ada")];
    expect(mentionOptions("ad", participants, group).map((option) => option.handle)).toEqual(["adam", "ada"]);
    expect(mentionOptions("ad", participants, group, "@panel @toby ").map((option) => option.handle)).toEqual(["ada", "adam"]);
  });

  it("offers no panel outside groups, nor @panel with fewer than two enabled agents", () => {
    expect(mentionOptions("", [ann, agent("toby"), agent("ada")], { allowed: false, saved: [board] }).map((option) => option.kind)).not.toContain("panel");
    expect(mentionOptions("pa", [ann, agent("toby"), agent("ada", true)], group)).toEqual([]);
  });
});

describe("panel preview", () => {
  const participants = [ann, agent("toby"), agent("ada"), agent("sage"), agent("rex", true)];
  it("names who will answer, in the order mentioned", () => {
    expect(panelPreview("@panel @sage @toby @ada ship it?", participants, group)).toEqual({ ok: true, text: "Panel: Sage, Toby and Ada will answer together, then vote for the best answer." });
    expect(panelPreview("@review-board ready?", participants, group)).toEqual({ ok: true, text: "Review board: Toby and Ada will answer together, then vote for the best answer." });
  });

  it("says before sending why a panel would be refused", () => {
    expect(panelPreview("@panel @toby alone", participants, group)).toEqual({ ok: false, text: 'A panel needs at least two agents of this conversation: mention them after @panel, e.g. "@panel @toby @ada your question".' });
    expect(panelPreview("@panel @toby @rex", participants, group)).toEqual({ ok: false, text: "@rex is disabled and cannot sit on a panel." });
    const refusal = "The panel @review-board names an agent that no longer exists: ask an admin to update it.";
    expect(panelPreview("@review-board ready?", participants, { allowed: true, saved: [{ ...board, refusal }] })).toEqual({ ok: false, text: refusal });
  });

  it("says nothing of ordinary messages, code, or conversations without panels", () => {
    expect(panelPreview("@toby hi", participants, group)).toBeNull();
    expect(panelPreview("`@panel @toby @ada`", participants, group)).toBeNull();
    expect(panelPreview("@panel @toby @ada", participants, { allowed: false, saved: [] })).toBeNull();
  });
});
