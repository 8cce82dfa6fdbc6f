import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { emojiGroups } from "@/lib/reactions/emoji-catalog";
import { EmojiPicker } from "./emoji-picker";

const render = (label?: string) => renderToStaticMarkup(<EmojiPicker onPick={() => {}} onClose={() => {}} label={label} />);
const grids = (html: string) => html.split('role="grid"').slice(1);
const buttonNames = (html: string) => [...html.matchAll(/<button type="button" tabindex="(-1|0)" aria-label="([^"]*)"/g)].map((match) => ({ tabIndex: match[1], name: match[2] }));

describe("EmojiPicker", () => {
  it("is a dialog with a name and a labelled search box", () => {
    expect(render()).toMatch(/^<div role="dialog" aria-label="Pick an emoji"/);
    expect(render("Add reaction")).toMatch(/^<div role="dialog" aria-label="Add reaction"/);
    expect(render()).toMatch(/<input type="search" aria-label="Search emoji" placeholder="Search emoji"/);
    expect(render()).toContain('<p role="status" class="sr-only"></p>');
  });

  it("shows the frequently used emoji first, named by their names, one Tab stop", () => {
    const [frequent] = grids(render());
    expect(frequent).toMatch(/^ aria-labelledby="[^"]+"/);
    const buttons = buttonNames(frequent!.split("</div></div></div>")[0]!);
    expect(buttons.map((button) => button.name)).toEqual(["thumbs up", "red heart", "face with tears of joy", "party popper", "face with open mouth", "crying face", "folded hands", "eyes"]);
    expect(buttons.filter((button) => button.tabIndex === "0")).toHaveLength(1);
    expect(render()).toContain(">Frequently used</div>");
  });

  it("offers Unicode's groups as tabs and shows the first group's emoji", () => {
    const html = render();
    const tabs = [...html.matchAll(/role="tab"[^>]*aria-selected="(true|false)"[^>]*aria-label="([^"]*)"/g)].map((match) => [match[2]!.replace("&amp;", "&"), match[1]]);
    expect(tabs).toEqual(emojiGroups().map((group, index) => [group.group, String(index === 0)]));
    const [, group] = grids(html);
    expect(group).toMatch(/^ aria-label="Smileys &amp; Emotion"/);
    const buttons = buttonNames(group!);
    expect(buttons).toHaveLength(emojiGroups()[0]!.emojis.length);
    expect(buttons[0]).toEqual({ tabIndex: "0", name: "grinning face" });
    expect(buttons.filter((button) => button.tabIndex === "0")).toHaveLength(1);
  });

  it("lays the grids out as rows of cells holding one button each", () => {
    const html = render();
    expect(html).not.toMatch(/role="row"[^>]*>(?!<div role="gridcell">)/);
    expect(html).not.toMatch(/role="gridcell"><(?!button)/);
    // The tab panel is named by its tab.
    expect(html).toMatch(/role="tabpanel" id="([^"]+)" aria-labelledby="[^"]+-tab-smileys_emotion"/);
  });
});
