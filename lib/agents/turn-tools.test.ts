import { describe, expect, it } from "vitest";
import type { TurnTool } from "@/lib/mcp/tools-for-turn";
import { chorusTools, procedureToolsFirst } from "./turn-tools";

const tool = (server: string, name: string): TurnTool => ({ serverId: server, server, toolName: name, name: `${server}__${name}`, askFirst: false, description: name, parameters: { type: "object" } });
const tools = [tool("crm", "create_ticket"), tool("crm", "search"), tool("vendors", "vendor_lookup")];

describe("the tools a turn offers", () => {
  it("offers the tools the matched procedure names in its steps first, by either name, the rest as they were", () => {
    const procedure = { id: "p", name: "New vendor", steps: ["Call vendor_lookup with the vendor's name", "Then use crm__create_ticket for the request"], score: 1, matchedBy: "regex" as const };
    expect(procedureToolsFirst(tools, procedure).map((offered) => offered.name)).toEqual(["crm__create_ticket", "vendors__vendor_lookup", "crm__search"]);
  });

  it("matches a tool's own name as a word only, and keeps the order without a procedure", () => {
    const procedure = { id: "p", name: "Research", steps: ["Do some research first"], score: 1, matchedBy: "embedding" as const };
    expect(procedureToolsFirst(tools, procedure)).toEqual(tools);
    expect(procedureToolsFirst(tools, null)).toEqual(tools);
  });

  it("lists Chorus's own tools under the server chorus, never ask-first", () => {
    expect(chorusTools([{ name: "handoff", description: "d", parameters: {} }])).toEqual([{ name: "handoff", description: "d", parameters: {}, server: "chorus", askFirst: false }]);
  });
});
