import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./markdown";

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
});
