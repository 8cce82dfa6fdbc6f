import { describe, expect, it } from "vitest";
import { baseToolName, chooseOfflineTool } from "./offline-tool-choice";
import type { ToolSpec } from "./types";

const tool = (name: string, properties: Record<string, object> = {}, required: string[] = []): ToolSpec => ({ name, description: name, parameters: { type: "object", properties, required } });
const notes = [tool("notes__add_note", { text: { type: "string" } }, ["text"]), tool("notes__current_time"), tool("notes__search_notes", { query: { type: "string" } }, ["query"])];
const choose = (message: string, tools = notes) => {
  const call = chooseOfflineTool(message, tools);
  return call && { name: call.name, args: JSON.parse(call.arguments) as unknown };
};

describe("chooseOfflineTool", () => {
  it("asks the clock for the time or the date, however plainly put", () => {
    for (const message of ["what time is it?", "What's the time", "@scout what is the current date?", "the time?", "Can you tell me the time please", "hey @scout, what day is it today?", "Do you know what time it is?"]) {
      expect(choose(message), message).toEqual({ name: "notes__current_time", args: {} });
    }
  });

  it("searches the notes for what follows, without the question's punctuation or quotes", () => {
    expect(choose("search the notes for the release checklist?")).toEqual({ name: "notes__search_notes", args: { query: "the release checklist" } });
    expect(choose("@scout find notes about on call")).toEqual({ name: "notes__search_notes", args: { query: "on call" } });
    expect(choose("Please look up staging in the notes.")).toEqual({ name: "notes__search_notes", args: { query: "staging" } });
    expect(choose('what do the notes say about "deploys"?')).toEqual({ name: "notes__search_notes", args: { query: "deploys" } });
  });

  it("adds a note with the text as written", () => {
    expect(choose("add a note: Ship v2 on Friday.")).toEqual({ name: "notes__add_note", args: { text: "Ship v2 on Friday." } });
    expect(choose("@scout note that the demo is at 3 pm")).toEqual({ name: "notes__add_note", args: { text: "the demo is at 3 pm" } });
    expect(choose("remember in the notes: Bo owns the billing move")).toEqual({ name: "notes__add_note", args: { text: "Bo owns the billing move" } });
    expect(choose('could you add a note saying "what time is it?" is a FAQ')).toEqual({ name: "notes__add_note", args: { text: '"what time is it?" is a FAQ' } });
  });

  it("takes an explicit 'use TOOL with {json}' as written, by the offered name or the tool's own", () => {
    expect(chooseOfflineTool('use notes__search_notes with {"query": "staging"}', notes)).toEqual({ name: "notes__search_notes", arguments: '{"query": "staging"}' });
    expect(chooseOfflineTool("use current_time", notes)).toEqual({ name: "notes__current_time", arguments: "{}" });
    // Arguments that are not JSON still go: the tool loop refuses them with its reason.
    expect(chooseOfflineTool("use add_note with text=hello", notes)).toEqual({ name: "notes__add_note", arguments: "text=hello" });
    expect(chooseOfflineTool("use the force", notes)).toBeNull();
    expect(chooseOfflineTool('use notes__delete_all with {"sure": true}', notes)).toBeNull();
  });

  it("finds the tool by its own name, whatever the server is called, and names the argument as the tool does", () => {
    const other = [tool("tracker__createTicket", { title: { type: "number" }, body: { type: "string" } }, ["body"]), tool("wiki__search-pages", { q: { type: "string" } }), tool("ops__clock")];
    expect(choose("add a note: the build is red", other)).toEqual({ name: "tracker__createTicket", args: { body: "the build is red" } });
    expect(choose("search the notes for runbook", other)).toEqual({ name: "wiki__search-pages", args: { q: "runbook" } });
    expect(choose("what time is it", other)).toEqual({ name: "ops__clock", args: {} });
    // A notes tool wins over another server's search.
    expect(choose("search the notes for runbook", [...other, ...notes])?.name).toBe("notes__search_notes");
  });

  it("calls nothing for ordinary messages, tools that do not fit, or when no tool is offered", () => {
    for (const message of ["What is the plan?", "I don't have the time today", "Note", "add a note:", "time flies", "please summarise the notes"]) {
      expect(choose(message), message).toBeNull();
    }
    expect(choose("what time is it?", [notes[0]!, notes[2]!])).toBeNull();
    expect(choose("add a note: x", [tool("addresses__lookup_address")])).toBeNull();
    expect(chooseOfflineTool("what time is it?", [])).toBeNull();
  });

  it("reads a tool's own name after its server's prefix", () => {
    expect(baseToolName("notes__add_note")).toBe("add_note");
    expect(baseToolName("capture_procedure")).toBe("capture_procedure");
  });
});
