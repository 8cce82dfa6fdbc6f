import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown, ParsedMarkdown } from "./markdown";
import { plainLine } from "./plain-line";

const render = (text: string, handles = { known: new Set(["toby", "mia"]), mine: "mia" }) => renderToStaticMarkup(<Markdown text={text} handles={handles} />);

describe("Markdown", () => {
  it("highlights @mentions of participants, the reader's own more strongly, never inside code or emails", () => {
    const html = render("@toby and @mia, not @stranger, not `@toby`, not mia@example.com");
    expect(html).toContain('<span class="mention">@toby</span>');
    expect(html).toContain('<span class="mention mention-me">@mia</span>');
    expect(html).not.toContain(">@stranger</span>");
    expect(html).toContain("<code");
    expect(html.match(/class="mention/g)).toHaveLength(2);
  });

  it("renders tables with header and body cells", () => {
    const html = render("| a | b |\n|---|---|\n| 1 | 2 |");
    expect(html).toMatch(/<th[^>]*>a<\/th>/);
    expect(html).toMatch(/<td[^>]*>2<\/td>/);
  });

  it("labels a code block with its language and offers a copy button", () => {
    const html = render('```ts\nconst x = "hi";\n```');
    expect(html).toContain('aria-label="ts code"');
    expect(html).toMatch(/>ts<\/span>/);
    expect(html).toMatch(/Copy<\/span><span class="sr-only"> code<\/span>/);
    expect(html).toContain('class="hljs-keyword">const</span>');
  });

  it("keeps an ordered list's first number", () => {
    expect(render("3. third\n4. fourth")).toMatch(/<ol start="3"[^>]*>\s*<li>third<\/li>\s*<li>fourth<\/li>/);
    expect(render("1. first")).not.toContain("start=");
  });

  it("shows raw HTML as text", () => {
    expect(render("<script>alert(1)</script>")).not.toContain("<script>");
  });

  it("shows a plain line, unparsed, exactly as the parser would", () => {
    const lines = ["check part 5 of the release notes with the whole team before we ship", "1. first", "7. check part 7 of the", "007. bond", "3) third", "- a bullet", "+ another", "a  b, (c); d? e. 2.5 — f'g\"h", "Ünïcödé 字 😀", "x", "2020. was a year", "Set OPENAI_API_KEY: see the notes", "ratio 3:2 and a/b", "9. check part 9 of the ", "ends with spaces   "];
    for (const line of lines) {
      expect(plainLine(line), line).not.toBeNull();
      expect(render(line), line).toBe(renderToStaticMarkup(<ParsedMarkdown text={line} handles={{ known: new Set(["toby", "mia"]), mine: "mia" }} />));
    }
    // Lines made up of pieces near the edge of plain (markers, spaces of several kinds, numbers): whatever is taken as plain renders as parsed.
    const pieces = ["a", "word", " ", "\u00a0", "\u3000", "\u2028", "1", "9.", "10)", ".", ")", "-", "- ", "+ ", "1. ", "=", "(", "'", "?", "é", "—", "_", "a_b", ":", "/", "http", "www"];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let index = 0; index < 400; index++) {
      const line = Array.from({ length: 1 + Math.floor(next() * 6) }, () => pieces[Math.floor(next() * pieces.length)]).join("");
      if (plainLine(line)) expect(render(line), JSON.stringify(line)).toBe(renderToStaticMarkup(<ParsedMarkdown text={line} handles={{ known: new Set(["toby", "mia"]), mine: "mia" }} />));
    }
  });
});
