import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CsvTable, PREVIEW_ROWS } from "./csv-table";

const render = (text: string) => renderToStaticMarkup(<CsvTable text={text} delimiter="," name="people.csv" />);
const cellsOf = (html: string, tag: "th" | "td") => [...html.matchAll(new RegExp(`<${tag}(?: [^>]*)?>(.*?)</${tag}>`, "g"))].map((match) => match[1]);

describe("CsvTable", () => {
  it("names every column, one no header names included, and fills short rows so each cell has its header", () => {
    const html = render("name,\nAnn,1,extra\nBob\n");
    expect(cellsOf(html, "th")).toEqual(["name", '<span class="sr-only">Column 2</span>', '<span class="sr-only">Column 3</span>']);
    expect(cellsOf(html, "td")).toEqual(["Ann", "1", "extra", "Bob", "", ""]);
    expect(html).toContain('scope="col"');
  });

  it("shows the first rows and says how many of how many", () => {
    const html = render(["n", ...Array.from({ length: PREVIEW_ROWS + 20 }, (_, index) => String(index))].join("\n"));
    expect(cellsOf(html, "td")).toHaveLength(PREVIEW_ROWS);
    expect(html).toContain(`Showing 100 of 120 rows</caption>`);
    expect(render("n\n1\n")).toContain("Showing 1 of 1 row</caption>");
  });

  it("shows a cell's text as text, never as HTML", () => {
    expect(render('a\n"<img src=x onerror=alert(1)>"\n')).toContain("<td");
    expect(render('a\n"<img src=x onerror=alert(1)>"\n')).not.toContain("<img");
  });
});
