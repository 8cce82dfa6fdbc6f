import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { ContextSnapshot, ToolItem } from "@/lib/context/types";
import { BudgetBar } from "./budget-bar";
import { SectionList } from "./section-list";
import { offeredToolTokens, ToolList } from "./tool-list";

const searchNotes: ToolItem = { name: "notes__search_notes", server: "notes", askFirst: false, tokens: 120, included: true };
const addNote: ToolItem = { name: "notes__add_note", server: "notes", askFirst: true, tokens: 95, included: true };
const handoff: ToolItem = { name: "handoff", server: "chorus", askFirst: false, tokens: 60, included: true };
const leftOut = (tool: ToolItem): ToolItem => ({ ...tool, included: false, reason: "budget" });

/** The text a person reads, tags dropped and entities decoded. */
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&quot;/g, '"').replace(/&#x27;/g, "'").replace(/&amp;/g, "&");
const rows = (html: string, label: string) => {
  const list = new RegExp(`<ul[^>]*(?:aria-label="${label}"|aria-labelledby="${label}")[^>]*>(.*?)</ul>`, "s").exec(html)?.[1] ?? "";
  return [...list.matchAll(/<li[^>]*>(.*?)<\/li>/gs)].map((match) => text(match[1]!));
};
const summaryOf = (html: string) => text(/<summary[^>]*>(.*?)<\/summary>/s.exec(html)?.[1] ?? "");

describe("ToolList", () => {
  it("renders nothing for a snapshot older than tools, or a turn without any", () => {
    expect(renderToStaticMarkup(<ToolList />)).toBe("");
    expect(renderToStaticMarkup(<ToolList tools={[]} unavailable={[]} />)).toBe("");
  });

  it("lists every tool offered with its server, the ask-first marker and its tokens, under a heading", () => {
    const html = renderToStaticMarkup(<ToolList tools={[searchNotes, addNote, handoff]} />);
    expect(html).toMatch(/<section aria-labelledby="inspector-tools"><h3 id="inspector-tools"[^>]*>Tools<\/h3>/);
    expect(rows(html, "Tools offered")).toEqual(["notes__search_notesnotes · 120 tokens", "notes__add_noteask firstnotes · 95 tokens", "handoffChorus · 60 tokens"]);
    expect(summaryOf(html)).toBe("3 tools offered275 tokens");
    // All offered: a list a person opens; nothing struck through.
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(html).not.toContain("<del");
  });

  it("says the tools' sum counts in the budget but in no section", () => {
    const html = renderToStaticMarkup(<ToolList tools={[searchNotes, addNote]} />);
    expect(text(html)).toContain("215 tokens of tool definitions, sent with every call: counted in the budget, but in no section.");
    expect(offeredToolTokens([searchNotes, addNote])).toBe(215);
    expect(offeredToolTokens(undefined)).toBe(0);
  });

  it("strikes through tools left out for the budget, with the reason, and opens on them", () => {
    const html = renderToStaticMarkup(<ToolList tools={[leftOut(searchNotes), leftOut(addNote)]} />);
    expect(rows(html, "Tools offered")).toEqual(["notes__search_notesnotes · 120 tokens · left out: budget", "notes__add_noteask firstnotes · 95 tokens · left out: budget"]);
    expect(html).toMatch(/<del[^>]*>notes__search_notes<\/del>/);
    expect(html).toMatch(/<span class="[^"]*text-danger[^"]*"> · left out: budget<\/span>/);
    expect(html).toMatch(/<details[^>]* open/);
    expect(summaryOf(html)).toBe("0 of 2 tools offered0 tokens");
    expect(text(html)).toContain("No tool was offered: the system prompt, the tools (215 tokens) and the message did not fit the budget together.");
    expect(offeredToolTokens([leftOut(searchNotes)])).toBe(0);
  });

  it("names the servers whose tools could not be offered, and why, even when no tool was", () => {
    const html = renderToStaticMarkup(<ToolList unavailable={[{ server: "calendar", reason: "The server did not answer within 10 s." }]} />);
    expect(text(html)).toContain("Servers not available this turn");
    expect(html).toMatch(/<h3[^>]*>Tools<\/h3>.*<h4 id="inspector-tools-unavailable"/s);
    expect(rows(html, "inspector-tools-unavailable")).toEqual(["calendar: The server did not answer within 10 s."]);
    expect(html).not.toContain("Tools offered");
  });
});

describe("tools in the rest of the inspector", () => {
  const snapshot = (tools?: ToolItem[]) =>
    ({
      budget: { maxTokens: 800, usedTokens: 500 },
      sections: [
        { kind: "system", tokens: 100, items: [] },
        { kind: "current", tokens: 50, items: [] },
      ],
      tools,
    }) as unknown as ContextSnapshot;

  it("puts the offered tools' tokens in the budget bar's legend, after the system prompt", () => {
    const legend = rows(renderToStaticMarkup(<BudgetBar snapshot={snapshot([searchNotes, addNote])} />), "Tokens by section");
    expect(legend).toEqual(["System prompt: 100", "Tools (in no section): 215", "Current message: 50"]);
  });

  it("leaves the tools out of the bar when they were not offered, or the snapshot is older than them", () => {
    expect(rows(renderToStaticMarkup(<BudgetBar snapshot={snapshot([leftOut(searchNotes)])} />), "Tokens by section")).toEqual(["System prompt: 100", "Current message: 50"]);
    expect(rows(renderToStaticMarkup(<BudgetBar snapshot={snapshot()} />), "Tokens by section")).toEqual(["System prompt: 100", "Current message: 50"]);
  });

  it("says which tool an earlier result in the history came from", () => {
    const html = renderToStaticMarkup(
      <SectionList sections={[{ kind: "history", tokens: 14, items: [{ id: "r1", seq: 3, tokens: 14, included: true, source: "tool:notes__search_notes" }] }]} describe={() => "Scout: 3 notes found"} />,
    );
    expect(text(html)).toContain("seq 3 · 14 tokens · result of notes__search_notes");
  });
});
