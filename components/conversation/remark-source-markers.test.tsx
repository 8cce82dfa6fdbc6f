import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

const citations = { messageId: "m1", documents: ["Handbook.md", "Leave policy.pdf"] };
const render = (text: string) => renderToStaticMarkup(<Markdown text={text} citations={citations} />);
const marker = (number: number, label: string, document: string) =>
  `<sup><a href="#source-m1-${number}" class="rounded px-0.5 font-semibold text-link hover:underline">${label}<span class="sr-only"> source: ${document}</span></a></sup>`;

describe("a reply's [n] markers", () => {
  it("link each number that names a source to it, with the document's name for screen readers", () => {
    const html = render("Leave is 25 days [1], carried over until March [2].");
    expect(html).toContain(`25 days ${marker(1, "[1]", "Handbook.md")}, carried over until March ${marker(2, "[2]", "Leave policy.pdf")}.`);
  });

  it("link each number of a list, keeping the brackets and commas as text, and adjacent markers alike", () => {
    expect(render("Both [1, 2].")).toContain(`Both [${marker(1, "1", "Handbook.md")}, ${marker(2, "2", "Leave policy.pdf")}].`);
    expect(render("Both [1][2].")).toContain(`Both ${marker(1, "[1]", "Handbook.md")}${marker(2, "[2]", "Leave policy.pdf")}.`);
    expect(render("Some [2, 7].")).toContain(`Some [${marker(2, "2", "Leave policy.pdf")}, 7].`);
  });

  it("leave plain text a number with no such source, code, links, and every marker of a message without sources", () => {
    const html = render("No [3], no [0], not `[1]`, not [see [1]](https://example.com), not [x].");
    expect(html).not.toContain("<sup");
    expect(html).toContain("No [3], no [0]");
    expect(html).toContain("<code");
    expect(renderToStaticMarkup(<Markdown text="Cited [1]." />)).toBe('<div class="space-y-2"><p class="whitespace-pre-wrap break-words">Cited [1].</p></div>');
  });

  it("do not turn raw HTML into markers: a <sup> typed in a reply stays text", () => {
    expect(render('<sup data-source="1">1</sup>')).not.toContain("<sup");
  });
});
