import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { MessageDto } from "@/lib/conversations/message-dto";
import type { MessageMetadata } from "@/lib/conversations/message-metadata";
import type { MessageChanges } from "@/hooks/use-message-changes";
import { MessageGroup } from "./message-group";
import type { MessageContext } from "./message-item";
import { agentMessage as message, scout } from "./agent-message.fixture";
import { approvalText, prettyArguments, ToolStep, toolDuration, toolStepSummary } from "./tool-step";

type ToolResult = NonNullable<MessageMetadata["toolResult"]>;


function toolResultMessage(result: Partial<ToolResult> = {}, content = "3 notes found:\n- groceries\n- plans\n- ideas"): MessageDto {
  return message({
    id: "r1",
    seq: 3,
    role: "tool",
    content,
    metadata: {
      isToolResult: true,
      toolName: "notes__search_notes",
      toolCallId: "call-1",
      dispatchId: "d1",
      agentId: "scout",
      toolResult: { server: "notes", tool: "search_notes", arguments: '{"query":"plans","limit":3}', approval: "none", startedAt: "2026-01-01T10:00:01.000Z", ms: 120, resultTokens: 14, cut: false, ...result },
    },
  });
}

/** The text a person reads, tags dropped and entities decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, "&");
const summaryOf = (html: string) => text(/<summary[^>]*>(.*?)<\/summary>/s.exec(html)?.[1] ?? "");

describe("ToolStep", () => {
  it("is a closed, keyboard-operable step whose summary says what ran and how long", () => {
    const html = renderToStaticMarkup(<ToolStep message={toolResultMessage()} />);
    expect(html).toMatch(/^<details /);
    expect(html).not.toMatch(/<details[^>]* open/);
    expect(summaryOf(html)).toBe("Used search_notes (notes) · 120 ms");
  });

  it("shows the arguments as indented JSON, and the result as the model got it", () => {
    const html = renderToStaticMarkup(<ToolStep message={toolResultMessage()} />);
    const blocks = [...html.matchAll(/<pre[^>]*>(.*?)<\/pre>/gs)].map((match) => text(match[1]!));
    expect(blocks).toEqual(['{\n  "query": "plans",\n  "limit": 3\n}', "3 notes found:\n- groceries\n- plans\n- ideas"]);
    // Long lines wrap instead of widening the thread at phone width; tall ones scroll and take focus.
    expect(html).toMatch(/<pre tabindex="0" class="[^"]*whitespace-pre-wrap[^"]*\[overflow-wrap:anywhere\]/);
    expect(text(html)).toContain("Arguments");
    expect(text(html)).toContain("Result");
  });

  it("keeps arguments that are not JSON as they came", () => {
    expect(prettyArguments("{not json")).toBe("{not json");
    expect(prettyArguments("")).toBe("(no arguments)");
    expect(prettyArguments('{"a":[1,2]}')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}');
  });

  it("marks a failed call in words and shows its error", () => {
    const html = renderToStaticMarkup(<ToolStep message={toolResultMessage({ error: "The notes server timed out after 30 s." }, "Error: timed out")} />);
    expect(summaryOf(html)).toBe("Used search_notes (notes) · 120 msfailed");
    expect(html).toMatch(/<span class="[^"]*text-danger[^"]*">failed<\/span>/);
    expect(text(html)).toContain("Error: The notes server timed out after 30 s.");
  });

  it("marks a result cut to fit the budget", () => {
    const html = renderToStaticMarkup(<ToolStep message={toolResultMessage({ cut: true }, "lots of text\n[… 1200 more tokens cut]")} />);
    expect(summaryOf(html)).toBe("Used search_notes (notes) · 120 mscut");
    expect(text(html)).toContain("Result (cut to fit the agent's budget)");
    expect(text(html)).toContain("[… 1200 more tokens cut]");
  });

  it("says a denied call did not run, and who denied it", () => {
    const html = renderToStaticMarkup(<ToolStep message={toolResultMessage({ tool: "add_note", approval: "denied", decidedBy: "Ana", error: "denied" }, "Not run: Ana denied it")} />);
    expect(summaryOf(html)).toBe("Did not use add_note (notes)denied");
    expect(html).not.toContain(">failed<");
    expect(text(html)).toContain("Approval: denied by Ana");
    expect(text(html)).toContain("Not run: Ana denied it");
  });

  it("words durations and approvals", () => {
    expect(toolDuration(0)).toBe("0 ms");
    expect(toolDuration(2_440)).toBe("2.4 s");
    expect(toolDuration(65_000)).toBe("1 min 5 s");
    expect(toolStepSummary({ server: "s", tool: "t", arguments: "{}", approval: "expired", startedAt: "", ms: 0, resultTokens: 5, cut: false })).toBe("Did not use t (s)");
    expect(approvalText({ approval: "approved", decidedBy: "Ana" })).toBe("approved by Ana");
    expect(approvalText({ approval: "denied", decidedBy: "Ana", reason: "not now" })).toBe("denied by Ana (not now)");
    expect(approvalText({ approval: "denied" })).toBe("denied");
    expect(approvalText({ approval: "expired", decidedBy: "Ana" })).toBe("approval expired");
    expect(approvalText({ approval: "none" })).toBeNull();
  });
});

describe("tool steps in the thread", () => {
  const step = (approval: "none" | "pending", content = "") =>
    message({
      id: "s1",
      seq: 2,
      content,
      metadata: {
        dispatchId: "d1",
        model: "gpt-test",
        provider: "openai",
        toolStep: {
          calls: [{ id: "call-1", name: "notes__search_notes", server: "notes", tool: "search_notes", arguments: "{}", askFirst: approval !== "none", approval, approvalId: "ap1" }],
          usedTokens: 900,
          turnStartedAt: "2026-01-01T10:00:00.000Z",
          askedBy: { id: "ana", name: "Ana" },
        },
      },
    });
  const reply = message({ id: "a1", seq: 4, content: "You have **3** notes.", metadata: { dispatchId: "d1", model: "gpt-test", provider: "openai" } });
  const context: MessageContext = {
    userId: "ana",
    isAdmin: false,
    changes: {} as MessageChanges,
    askerOf: () => "ana",
    resendableId: null,
    onReply: () => {},
    onCopyLink: () => {},
    readOnly: false,
  };
  const render = (messages: MessageDto[]) =>
    renderToStaticMarkup(<MessageGroup group={{ key: "g", author: scout, messages }} handles={{ known: new Set(), mine: null }} context={context} onInspect={() => {}} />);

  it("keeps steps, results and the reply in the agent's one group, with the reply's details only on the reply", () => {
    const html = render([step("pending", "Let me look that up."), toolResultMessage(), reply]);
    expect(html.match(/<li /g)).toHaveLength(1);
    expect(html.match(/data-seq="/g)).toHaveLength(3);
    expect(text(html)).toContain("Let me look that up.");
    expect(html).toContain('role="group"');
    expect(text(html)).toContain("Scout wants to use search_notes (notes)");
    expect(summaryOf(html)).toBe("Used search_notes (notes) · 120 ms");
    expect(html.match(/>Inspect context</g)).toHaveLength(1);
    expect(html.match(/>Details</g)).toHaveLength(1);
  });

  it("shows nothing for a step that came without text or approvals, but keeps its place for links", () => {
    const html = render([step("none"), toolResultMessage()]);
    // No text, no card, no menu: only the (empty) line of its details.
    expect(html).toMatch(/<div data-seq="2" tabindex="-1"[^>]*><span class="[^"]*"><\/span><\/div>/);
    expect(html.match(/aria-label="Actions for Scout&#x27;s message"/g)).toHaveLength(1);
  });
});
