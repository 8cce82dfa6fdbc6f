import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ReactionBar, type ReactionBarProps } from "./reaction-bar";

const people = (...names: string[]) => names.map((name) => ({ id: name.toLowerCase(), name }));
const render = (props: Partial<ReactionBarProps> = {}) =>
  renderToStaticMarkup(
    <ReactionBar
      reactions={[
        { emoji: "👍", users: people("Ada", "Me", "Bob") },
        { emoji: "❤️", users: people("Cy") },
        { emoji: "😂", users: [] },
      ]}
      currentUserId="me"
      onToggle={() => {}}
      {...props}
    />,
  );
/** Each chip's opening tag, in order. */
const chips = (html: string) => [...html.matchAll(/<button[^>]*aria-pressed="[^"]*"[^>]*>/g)].map((match) => match[0]);
const attribute = (tag: string, name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

describe("ReactionBar", () => {
  it("shows one chip per emoji someone reacted with, pressed when the current user did", () => {
    const html = render();
    const [thumbs, heart, ...rest] = chips(html);
    expect(rest).toEqual([]);
    expect(attribute(thumbs!, "aria-pressed")).toBe("true");
    expect(attribute(heart!, "aria-pressed")).toBe("false");
    expect(html).toContain('<span class="font-semibold tabular-nums">3</span>');
    expect(html).toContain('<span class="font-semibold tabular-nums">1</span>');
  });

  it("names each chip with its emoji's name and the visible count", () => {
    const [thumbs, heart] = chips(render());
    expect(attribute(thumbs!, "aria-label")).toBe("thumbs up: 3 reactions");
    expect(attribute(heart!, "aria-label")).toBe("red heart: 1 reaction");
  });

  it("describes who reacted with a tooltip, hidden until hover or focus", () => {
    const html = render();
    const [thumbs] = chips(html);
    const id = attribute(thumbs!, "aria-describedby")!;
    const tooltip = new RegExp(`<span role="tooltip" id="${id}" hidden=""[^>]*><span[^>]*>([^<]*)</span>`).exec(html);
    expect(tooltip?.[1]).toBe("You, Ada and Bob reacted with thumbs up");
    expect(html).toContain(">Cy reacted with red heart</span>");
  });

  it("offers Add reaction, which opens the picker as a dialog", () => {
    const html = render();
    expect(html).toMatch(/<button type="button" aria-haspopup="dialog" aria-expanded="false" title="Add reaction"[^>]*>.*?<span class="sr-only">Add reaction<\/span><\/button>/);
    expect(html).not.toContain('role="dialog"');
    expect(html).toContain('role="group" aria-label="Reactions"');
  });

  it("shows only Add reaction when nobody has reacted", () => {
    const html = render({ reactions: [] });
    expect(chips(html)).toEqual([]);
    expect(html).toContain("Add reaction");
  });

  it("keeps chips focusable when disabled, so who reacted can still be read", () => {
    const html = render({ disabled: true });
    const all = chips(html);
    expect(all).toHaveLength(2);
    for (const chip of all) {
      expect(attribute(chip, "aria-disabled")).toBe("true");
      expect(chip).not.toMatch(/\sdisabled=/);
    }
    expect(html).toMatch(/aria-expanded="false" aria-disabled="true"/);
  });
});
